// One bench program in a fresh Node process: the child is `script` run again with `env` added, and
// answers with one JSON line, its last line of stdout. A fresh process per sample is how the
// first-run measures see what a new agent session pays.
import { spawn } from 'node:child_process';

/**
 * Runs `script` (a file path) in a new `node --no-node-snapshot` with `env` on top of this
 * process's environment, and resolves to the JSON of the last line it prints.
 * @example const { ms } = await jsonChild(fileURLToPath(import.meta.url), { MY_CHILD: '1' });
 */
export function jsonChild(script, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--no-node-snapshot', script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err = (err + d).slice(-2000)));
    child.on('exit', (code) => {
      const last = out.trim().split('\n').pop();
      if (code === 0 && last) resolve(JSON.parse(last));
      else reject(new Error(`child ${script} failed (${code}): ${err}`));
    });
  });
}
