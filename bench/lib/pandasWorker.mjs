// Host side of bench/python/pandas_worker.py: a persistent pandas worker (the frame loaded once,
// questions over stdin), and a cold one-question Python process.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { PANDAS_WORKER } from './paths.mjs';

/** A Python process holding the frame; ask() times the round trip as the caller sees it. */
export class PandasWorker {
  static async start(python, csv) {
    const w = new PandasWorker(python, csv);
    w.ready = await w.next();
    if (!w.ready?.ready) throw new Error(`pandas worker did not start: ${JSON.stringify(w.ready)} ${w.stderr}`);
    return w;
  }

  constructor(python, csv) {
    this.stderr = '';
    this.child = spawn(python, [PANDAS_WORKER, csv], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (d) => (this.stderr = (this.stderr + d).slice(-4000)));
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
  }

  get pid() {
    return this.child.pid;
  }

  async next() {
    const { value, done } = await this.lines.next();
    if (done) throw new Error(`pandas worker exited: ${this.stderr}`);
    return JSON.parse(value);
  }

  /** { ms (round trip), computeMs (inside Python), ok, value } */
  async ask(code) {
    const t = performance.now();
    this.child.stdin.write(`${JSON.stringify({ code })}\n`);
    const answer = await this.next();
    return { ms: performance.now() - t, computeMs: answer.ms, ok: answer.ok, value: answer.value };
  }

  /** The worker's own { rssMb, hwmMb }. */
  async mem() {
    this.child.stdin.write('{"mem":true}\n');
    return this.next();
  }

  async close() {
    this.child.stdin.end();
    await new Promise((resolve) => (this.child.exitCode !== null ? resolve() : this.child.once('exit', resolve)));
  }
}

/** One cold Python process: import pandas, read_csv, answer `code`, exit. Wall time from spawn to exit. */
export function pandasColdAnswer(python, csv, code) {
  const t = performance.now();
  const p = spawnSync(python, [PANDAS_WORKER, csv, '--once', code], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const wallMs = performance.now() - t;
  if (p.status !== 0) throw new Error(`pandas cold run failed (${p.status}): ${p.stderr.slice(-2000)}`);
  return { wallMs, ...JSON.parse(p.stdout.trim().split('\n').pop()) };
}
