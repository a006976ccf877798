#!/usr/bin/env node
// How far past `memoryLimitMb` a holder process goes under each memory attack (issue 7): every
// attack runs in a fresh one-holder pool; the holder's peak RSS (VmHWM from /proc/<pid>/status,
// reset with clear_refs and sampled every 5 ms, since a killed holder takes its /proc entry with
// it) is compared with its RSS before the run. The watchdogs aim to keep growth under 2x the limit.
//   node bench/memory-attacks.mjs [limitMb=64,256] [timeoutMs=5000]
// Needs the build (npm run build). Linux only (/proc).
import { readFileSync, writeFileSync } from 'node:fs';

const { createPool } = await import(new URL('../dist/src/index.js', import.meta.url).href);

const limits = (process.argv[2] ?? '64,256').split(',').map(Number);
const timeoutMs = Number(process.argv[3] ?? 5000);

/** [name, code]: the hazards of the issue, heap and off-heap. */
const ATTACKS = [
  ['array push (100k-element arrays)', 'const a = []; while (true) a.push(new Array(1e5).fill(1.5))'],
  ['Array(1e9).fill(0)', 'Array(1e9).fill(0); 1'],
  ['Map growth', 'const m = new Map(); for (let i = 0; ; i++) m.set(i, i)'],
  ['object with millions of keys', "const o = {}; for (let i = 0; ; i++) o['k' + i] = i"],
  ['array of 1 KB strings', "const a = []; for (let i = 0; ; i++) a.push('x'.repeat(1000) + i)"],
  ['string doubling (rope)', "let s = 'x'; while (true) s += s"],
  ['string doubling, flattened', "let s = 'x'; while (true) { s += s; s.charCodeAt(s.length >> 1) }"],
  ['256 MB string flattened', "const s = 'x'.repeat(2 ** 28); s.indexOf('y')"],
  ['256 MB string returned', "'x'.repeat(2 ** 28)"],
  ['512 MB string', "'x'.repeat(512 * 1024 * 1024).length"],
  ['typed arrays (8 MB each)', 'const a = []; while (true) a.push(new Float64Array(1e6))'],
  ['one 2 GB typed array', 'new Float64Array(2 ** 28).length'],
  ['JSON.parse ~1 GB result', "const s = '[' + '1,'.repeat(5e7) + '1]'; JSON.parse(s).length"],
  ['JSON.parse 10M-deep nesting', "JSON.parse('['.repeat(1e7) + ']'.repeat(1e7)); 1"],
  ['default sort of 3M numbers', 'const a = []; for (let i = 0; i < 3e6; i++) a.push(i * 7919 % 3e6); a.sort(); 1'],
  ['huge BigInt squaring', 'let x = 2n; while (true) x = x * x'],
  [
    'resizable ArrayBuffer (2 GB max)',
    'const b = new ArrayBuffer(8, { maxByteLength: 2 ** 31 }); typeof b.resize === "function" ? b.resize(2 ** 31 - 1) : b.resizable',
  ],
  ['microtask flood allocating', 'Promise.resolve().then(function f() { return Promise.resolve().then(f) }); 1'],
  ['100 MB print', "print('z'.repeat(100 * 1024 * 1024)); 1"],
  ['20 MB error message', "throw new Error('m'.repeat(20 * 1024 * 1024))"],
];

function status(pid, field) {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

const rows = [];
for (const limit of limits) {
  for (const [name, code] of ATTACKS) {
    const pool = createPool({ size: 1 });
    const box = await pool.createSandbox({ memoryLimitMb: limit, timeoutMs });
    await box.run('1');
    const [pid] = pool.stats().pids;
    const baseline = status(pid, 'VmRSS');
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      // not permitted: VmHWM then also covers the holder's start (a looser figure)
    }
    let peak = baseline;
    const sample = () => {
      const h = status(pid, 'VmHWM');
      if (h > peak) peak = h;
    };
    const timer = setInterval(sample, 5);
    const t0 = performance.now();
    const r = await box.run(code);
    const wall = performance.now() - t0;
    clearInterval(timer);
    sample();
    const next = await box.run('1 + 1');
    const killed = !pool.stats().pids.includes(pid);
    const outcome = r.error ? `${r.error.type}${r.error.type === 'RUNTIME_ERROR' ? ` (${r.error.name})` : ''}` : 'ok';
    const growth = peak - baseline;
    rows.push({
      name,
      limit,
      baseline,
      peak,
      growth,
      ratio: growth / limit,
      outcome,
      wall,
      killed,
      healthy: next.value === 2,
    });
    await box.close();
    await pool.close();
    process.stderr.write('.');
  }
}
process.stderr.write('\n');

const f = (n) => (Number.isFinite(n) ? Math.round(n) : '?');
console.log(`Node ${process.version}, ${(await import('node:os')).cpus().length} cores, timeoutMs ${timeoutMs}`);
console.log('');
console.log(
  '| attack | limit MB | holder RSS before MB | peak holder RSS MB | growth MB | growth / limit | outcome | wall ms | holder replaced | next run ok |',
);
console.log('|---|--:|--:|--:|--:|--:|---|--:|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.name} | ${r.limit} | ${f(r.baseline)} | ${f(r.peak)} | ${f(r.growth)} | ${r.ratio.toFixed(2)} | ${r.outcome} | ${f(r.wall)} | ${r.killed ? 'yes' : 'no'} | ${r.healthy ? 'yes' : 'NO'} |`,
  );
}
const worst = rows.reduce((a, b) => (b.ratio > a.ratio ? b : a));
console.log('');
console.log(
  `worst growth / limit: ${worst.ratio.toFixed(2)} (${worst.name}, ${worst.limit} MB); over 2x: ${rows.filter((r) => r.ratio > 2).length} of ${rows.length}; runs past deadline + 1 s: ${rows.filter((r) => r.wall > timeoutMs + 1000).length}; unhealthy after: ${rows.filter((r) => !r.healthy).length}`,
);
