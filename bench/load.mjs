#!/usr/bin/env node
// Load (issue 7): concurrent sessions, each checking that it only ever sees its own state (no
// cross-talk between isolates that share holder processes), with no errors. Each session keeps a
// private id and counter, a private table derived from award_data and a private prototype tweak;
// every run checks all of them and returns a value the host checks too.
//   node bench/load.mjs [sessions=8] [runsPerSession=200] [poolSize=2]
// Needs the build (npm run build).
const lib = await import(new URL('../dist/src/index.js', import.meta.url).href);
const { createPool } = lib;

const SESSIONS = Number(process.argv[2] ?? 8);
const RUNS = Number(process.argv[3] ?? 200);
const POOL = Number(process.argv[4] ?? 2);

const pool = createPool({ size: POOL, maxConcurrent: SESSIONS, maxQueue: SESSIONS * 2 });
const boxes = await Promise.all(Array.from({ length: SESSIONS }, () => pool.createSandbox({ timeoutMs: 10_000 })));

// setup: private state per session (a global id, a counter, a derived table, a prototype tweak;
// non-enumerable, so Arquero's own for...in loops do not trip over it)
await Promise.all(
  boxes.map((box, id) =>
    box.run(
      `var me = ${id}; var n = 0; var mine = award_data.filter((d) => d['Award Amount'] > ${id * 10_000}).select('Agency', 'Award Amount');` +
        ` Object.defineProperty(Object.getPrototypeOf({}), 'owner', { value: ${id} }); mine.numRows()`,
    ),
  ),
);

const WORK = [
  "value_counts(mine, 'Agency').numRows()",
  "mine.rollup({ s: op.sum('Award Amount') }).get('s', 0)",
  "award_data.groupby('Agency').count().numRows()",
  'mine.numRows()',
];

let errors = 0;
let crossTalk = 0;
const latencies = [];
const t0 = performance.now();
await Promise.all(
  boxes.map(async (box, id) => {
    for (let i = 1; i <= RUNS; i++) {
      const work = WORK[i % WORK.length];
      const started = performance.now();
      const r = await box.run(`n++; const w = ${work}; [me, n, ({}).owner, typeof w === 'number']`);
      latencies.push(performance.now() - started);
      if (r.error || r.sessionReset) {
        errors++;
        console.error(`session ${id} run ${i}:`, r.error ?? 'sessionReset');
        continue;
      }
      const [me, n, owner, numeric] = r.value;
      if (me !== id || n !== i || owner !== id || numeric !== true) {
        crossTalk++;
        console.error(`session ${id} run ${i} saw`, r.value);
      }
    }
  }),
);
const wall = (performance.now() - t0) / 1000;
await Promise.all(boxes.map((b) => b.close()));
const isolates = await pool.liveIsolates();
await pool.close();

latencies.sort((a, b) => a - b);
const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(1);
const total = SESSIONS * RUNS;
console.log(
  `Node ${process.version}, ${(await import('node:os')).cpus().length} cores; ${SESSIONS} concurrent sessions x ${RUNS} runs on a pool of ${POOL} holder processes`,
);
console.log('');
console.log('| figure | value |');
console.log('|---|--:|');
console.log(`| runs | ${total} |`);
console.log(`| errors | ${errors} |`);
console.log(`| cross-talk (a session saw another's id, counter or prototype) | ${crossTalk} |`);
console.log(`| wall time | ${wall.toFixed(1)} s |`);
console.log(`| throughput | ${(total / wall).toFixed(0)} runs/s |`);
console.log(
  `| latency p50 / p95 / p99 / max | ${q(0.5)} / ${q(0.95)} / ${q(0.99)} / ${latencies[latencies.length - 1].toFixed(1)} ms |`,
);
console.log(`| pool liveIsolates() after closing | ${isolates} |`);
if (errors || crossTalk || isolates) process.exitCode = 1;
