// Runs one measure (bench/measures/<name>.mjs) in a fresh Node process and returns its JSON.
// Each measure prints progress on stderr and exactly one JSON document as its last stdout line.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { MEASURES, ROOT } from './paths.mjs';

/** @returns {Promise<object>} the measure's result; rejects with its stderr tail when it fails. */
export function runMeasure(name, args = {}, { nodeFlags = [] } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, join(MEASURES, `${name}.mjs`)], {
      cwd: ROOT,
      env: { ...process.env, BENCH_ARGS: JSON.stringify(args) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let tail = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => {
      process.stderr.write(d);
      tail = (tail + d).slice(-3000);
    });
    child.on('exit', (code, signal) => {
      const last = out.trim().split('\n').pop();
      if (code === 0 && last) {
        try {
          return resolve(JSON.parse(last));
        } catch {
          // fall through: not JSON
        }
      }
      reject(new Error(`measure ${name} failed (${signal ?? `exit ${code}`}): ${tail || out.slice(-2000)}`));
    });
  });
}

/** Inside a measure: its arguments, and how to report. */
export const measureArgs = () => JSON.parse(process.env.BENCH_ARGS || '{}');
export const log = (...parts) => process.stderr.write(`  ${parts.join(' ')}\n`);
export const emit = (result) => process.stdout.write(`${JSON.stringify(result)}\n`);
