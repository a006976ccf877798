// 2f, 8 concurrent sessions answering a mixed question set: peak memory and throughput.
//   sbirtools: createPool() (one holder per core) with 8 sessions; memory = this host process +
//   the holder processes (pool.stats().pids), VmRSS summed every 50 ms (peak) and VmHWM summed.
//   pandas: 8 persistent workers (one per session, the frame loaded in each), same questions;
//   memory = the 8 workers only (their host process is not counted: favours pandas).
// Each session asks `rounds` rounds of the set, rotated so sessions ask different things at once.
//   BENCH_ARGS='{"sessions":8,"rounds":4,"python":"/usr/bin/python3"}' node bench/measures/concurrency.mjs
//   (add "poolSize" / "maxConcurrent" to compare against createPool()'s defaults)
import { MIXED_QUESTIONS } from '../questions.mjs';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { PandasWorker } from '../lib/pandasWorker.mjs';
import { rssSampler } from '../lib/procMem.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';

const { sessions = 8, rounds = 4, python, pandasWorkers = sessions, poolSize, maxConcurrent } = measureArgs();
const plan = (s) =>
  Array.from({ length: rounds * MIXED_QUESTIONS.length }, (_, i) => MIXED_QUESTIONS[(i + s) % MIXED_QUESTIONS.length]);
const round2 = (x) => Math.round(x * 100) / 100;

async function sbirtools() {
  const { createPool } = await import(dist('src/index.js'));
  // poolSize: holders (default one per core, as createPool() does)
  const pool = createPool({ ...(poolSize ? { size: poolSize } : {}), ...(maxConcurrent ? { maxConcurrent } : {}) });
  const sampler = rssSampler(() => [process.pid, ...pool.stats().pids]);
  const t0 = performance.now();
  const boxes = await Promise.all(
    Array.from({ length: sessions }, () => pool.createSandbox({ dataPath: CSV, cacheDir: CACHE_DIR })),
  );
  const openMs = performance.now() - t0;
  const t1 = performance.now();
  let answered = 0;
  await Promise.all(
    boxes.map(async (box, s) => {
      for (const q of plan(s)) {
        const r = await box.run(q.js);
        if (!r.ok) throw new Error(`${q.id}: ${JSON.stringify(r.error)}`);
        answered++;
      }
    }),
  );
  const wallMs = performance.now() - t1;
  const mem = sampler.stop();
  const holders = pool.stats().pids.length;
  for (const box of boxes) await box.close();
  await pool.close();
  return {
    holders,
    openMs: round2(openMs),
    wallMs: round2(wallMs),
    questions: answered,
    perSecond: round2(answered / (wallMs / 1000)),
    ...mem,
  };
}

async function pandas() {
  const t0 = performance.now();
  const workers = [];
  const sampler = rssSampler(() => workers.map((w) => w.pid));
  // started together, as 8 sessions arriving at once would be
  const starting = Array.from({ length: pandasWorkers }, () => PandasWorker.start(python, CSV));
  workers.push(...(await Promise.all(starting)));
  const openMs = performance.now() - t0;
  const t1 = performance.now();
  let answered = 0;
  await Promise.all(
    workers.map(async (w, s) => {
      for (const q of plan(s)) {
        const a = await w.ask(q.py);
        if (!a.ok) throw new Error(`pandas ${q.id}: ${a.value}`);
        answered++;
      }
    }),
  );
  const wallMs = performance.now() - t1;
  const mem = sampler.stop();
  await Promise.all(workers.map((w) => w.close()));
  return {
    workers: pandasWorkers,
    openMs: round2(openMs),
    wallMs: round2(wallMs),
    questions: answered,
    perSecond: round2(answered / (wallMs / 1000)),
    ...mem,
  };
}

const ours = await sbirtools();
log(
  `concurrency sbirtools: ${ours.perSecond} q/s, peak RSS sum ${ours.peakSumMb.toFixed(0)} MB (HWM sum ${ours.hwmSumMb.toFixed(0)} MB) over ${ours.holders} holders + host`,
);
const theirs = python ? await pandas() : null;
if (theirs)
  log(
    `concurrency pandas: ${theirs.perSecond} q/s, peak RSS sum ${theirs.peakSumMb.toFixed(0)} MB (HWM sum ${theirs.hwmSumMb.toFixed(0)} MB) over ${theirs.workers} workers`,
  );
emit({ sessions, rounds, questionSet: MIXED_QUESTIONS.map((q) => q.id), sbirtools: ours, pandas: theirs });
