#!/usr/bin/env node
// Soak (issue 7): many runs with 10% hostile code must keep the host's RSS flat (within +/-10%
// of its level after warm-up) and leave no live isolate behind. Sessions are reused for 25 runs
// and then closed; one run in five is a one-shot run(). Hostile runs rotate through time, memory,
// output, serialization and pollution attacks; benign runs do real analysis on award_data.
//   node --expose-gc bench/soak.mjs [runs=1000] [hostileEvery=10]   (the first quarter of the runs is warm-up)
// Needs the build (npm run build).
import { readFileSync } from 'node:fs';

const lib = await import(new URL('../dist/src/index.js', import.meta.url).href);
const { createSandbox, run, liveIsolates, liveSandboxCount, shutdown } = lib;

const RUNS = Number(process.argv[2] ?? 1000);
const HOSTILE_EVERY = Number(process.argv[3] ?? 10);
// warm-up: JIT, the default holder, Arquero caches, and V8 settling its heap size (it shrinks the
// heap once, a few hundred runs in, when it sees the steady state; that is a drop, not a leak)
const WARMUP = Math.floor(RUNS / 4);
const LIMITS = { timeoutMs: 1000, memoryLimitMb: 64, maxOutputBytes: 20_000, maxResultBytes: 100_000 };

const BENIGN = [
  "value_counts(award_data, 'Agency').head(5)",
  "award_data.groupby('Agency').rollup({ total: op.sum('Award Amount'), n: op.count() }).orderby(aq.desc('total')).objects()",
  "award_data.filter((d) => d['Award Amount'] > 500000).numRows()",
  "describe(award_data, ['Award Amount'])",
  "print(award_data.select('Company', 'Award Amount').slice(0, 3)); award_data.numRows()",
  "const by = award_data.groupby('Award Year').count().orderby('Award Year'); by.objects().length",
  '[1, 2, 3].map((x) => x * 2)',
];
const K = "['constr', 'uctor'].join('')";
const HOSTILE = [
  ['sync loop', 'while (true) {}'],
  ['await loop', 'while (true) { await 0 }'],
  ['memory bomb', 'const a = []; while (true) a.push(new Array(1e5).fill(1.5))'],
  ['fatal OOM (Map)', 'const m = new Map(); for (let i = 0; ; i++) m.set(i, i)'],
  ['builtin ignoring termination', '[].indexOf.call({ length: 2 ** 40 }, 1)'],
  ['output flood', "for (let i = 0; i < 1e5; i++) print('x'.repeat(100)); 1"],
  ['billion laughs', "let a = ['x'.repeat(100)]; for (let i = 0; i < 30; i++) a = [a, a]; a"],
  ['looping getter and thrown getter', 'throw { get message() { while (true) {} } }'],
  [
    'prototype pollution',
    `const F = (() => 0)[${K}]; F('return this')().Object.keys = () => []; ({})[['__pro', 'to__'].join('')].polluted = 1; 1`,
  ],
  ['never-settling promise', 'await new Promise(() => {})'],
];

const hostRss = () => process.memoryUsage.rss() / 1048576;
const gc = globalThis.gc ?? (() => undefined);
const outcomes = new Map();
const count = (k) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
const samples = [];
let warmRss = 0;
let slowest = { ms: 0, what: '' };
let box;
let boxRuns = 0;
const t0 = performance.now();

for (let i = 0; i < RUNS; i++) {
  const hostile = i % HOSTILE_EVERY === HOSTILE_EVERY - 1;
  const [what, code] = hostile
    ? HOSTILE[Math.floor(i / HOSTILE_EVERY) % HOSTILE.length]
    : ['benign', BENIGN[i % BENIGN.length]];
  const started = performance.now();
  let r;
  if (i % 5 === 4) {
    r = await run(code, LIMITS);
  } else {
    if (!box || boxRuns >= 25) {
      await box?.close();
      box = await createSandbox(LIMITS);
      boxRuns = 0;
    }
    boxRuns++;
    r = await box.run(code);
  }
  const ms = performance.now() - started;
  if (ms > slowest.ms) slowest = { ms, what };
  count(`${hostile ? 'hostile' : 'benign'} ${r.error?.type ?? 'ok'}`);
  if (!hostile && r.error && r.error.type !== 'OUTPUT_LIMIT')
    throw new Error(`benign run ${i} failed: ${JSON.stringify(r.error)}`);
  if (i + 1 === WARMUP || (i + 1 > WARMUP && (i + 1) % 50 === 0)) {
    gc();
    const rss = hostRss();
    if (i + 1 === WARMUP) warmRss = rss;
    samples.push([i + 1, rss]);
  }
}
await box?.close();
const wall = (performance.now() - t0) / 1000;
gc();
const endRss = hostRss();
const isolates = await liveIsolates();
const sandboxes = liveSandboxCount();
await shutdown();

const rssAfter = samples.filter(([n]) => n > WARMUP).map(([, r]) => r);
const min = Math.min(...rssAfter);
const max = Math.max(...rssAfter);
const drift = (x) => `${(((x - warmRss) / warmRss) * 100).toFixed(1)}%`;
const peakHost = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;

console.log(
  `Node ${process.version}, ${(await import('node:os')).cpus().length} cores; ${RUNS} runs, 1 in ${HOSTILE_EVERY} hostile, limits ${JSON.stringify(LIMITS)}`,
);
console.log('');
console.log('| figure | value |');
console.log('|---|--:|');
console.log(`| wall time | ${wall.toFixed(1)} s |`);
console.log(`| host RSS after warm-up (${WARMUP} runs) | ${warmRss.toFixed(1)} MB |`);
console.log(
  `| host RSS min / max after warm-up | ${min.toFixed(1)} / ${max.toFixed(1)} MB (${drift(min)} / ${drift(max)}) |`,
);
console.log(`| host RSS at the end | ${endRss.toFixed(1)} MB (${drift(endRss)}) |`);
console.log(`| host peak RSS (VmHWM) | ${peakHost.toFixed(1)} MB |`);
console.log(`| slowest run | ${Math.round(slowest.ms)} ms (${slowest.what}; deadline ${LIMITS.timeoutMs} ms) |`);
console.log(`| liveIsolates() at the end | ${isolates} |`);
console.log(`| liveSandboxCount() at the end | ${sandboxes} |`);
console.log('');
console.log('| outcome | runs |');
console.log('|---|--:|');
for (const [k, v] of [...outcomes].sort()) console.log(`| ${k} | ${v} |`);
console.log('');
console.log(`RSS samples (run: MB): ${samples.map(([n, r]) => `${n}: ${r.toFixed(1)}`).join(', ')}`);
const flat = max <= warmRss * 1.1 && min >= warmRss * 0.9 && endRss <= warmRss * 1.1;
console.log(
  `verdict: host RSS ${flat ? 'flat (within +/-10%)' : 'NOT flat'}; live isolates ${isolates === 0 ? '0' : isolates}; slowest run ${slowest.ms <= LIMITS.timeoutMs + 1000 ? 'within' : 'PAST'} deadline + 1 s`,
);
if (!flat || isolates !== 0 || sandboxes !== 0) process.exitCode = 1;
