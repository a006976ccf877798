#!/usr/bin/env node
// Where to_parquet / to_csv spend their time INSIDE the isolate (issue 16, target 2).
// Runs a session inline (no holder process) so the isolate can be CPU-profiled, warms the columns,
// then prints: column reads vs to_parquet vs to_csv (min of --repeat, ms, in the guest), per-column
// to_parquet times, and the top self-time functions of a V8 CPU profile of the writers.
// Usage: node --no-node-snapshot bench/profile-files-out.mjs --parquet FILE [--repeat 5]
//   FILE: e.g. the 200,000-row Parquet file bench/table-formats.mjs writes. For readable function
//   names build the prelude unminified first (minify: false in scripts/build-prelude.mjs).
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { catchIsolate } from './lib/catchIsolate.mjs';

const { values } = parseArgs({ options: { parquet: { type: 'string' }, repeat: { type: 'string', default: '5' } } });
if (!values.parquet)
  throw new Error(
    'pass --parquet FILE (a table with Employees, Amount and UEI columns, as bench/table-formats.mjs makes)',
  );
const root = resolve(import.meta.dirname, '..');
// catch the isolate the session creates, to profile it
const caught = catchIsolate(join(root, 'dist', 'src', 'runtime', 'engines', 'isolated-vm', 'loadIsolatedVm.js'));
const { createSandbox, shutdown } = await import(join(root, 'dist', 'src', 'index.js'));
const box = await createSandbox({
  isolation: 'inline',
  engine: 'isolated-vm',
  awardData: false,
  tables: { t: resolve(values.parquet) },
  preset: 'permissive',
  maxFileBytes: 1 << 30,
});
const base =
  "const r = t.filter(d => d.Employees < 250).derive({ Amount2: d => d.Amount * 2 }).orderby('UEI').slice(0, 100000)";
const R = Number(values.repeat);
const stages = await box.run(`${base};
const best = (f) => { let m = 1e9; for (let k = 0; k < ${R}; k++) { const t0 = Date.now(); f(); m = Math.min(m, Date.now() - t0); } return m; };
to_parquet(r); to_csv(r);
const out = { rows: r.numRows(), columnReads: best(() => r.columnNames().forEach((c) => r.array(c))), to_parquet: best(() => to_parquet(r)), to_csv: best(() => to_csv(r)), perColumnParquet: {} };
for (const c of r.columnNames()) { const s = r.select(c); out.perColumnParquet[c] = best(() => to_parquet(s)); }
out`);
console.log(JSON.stringify(stages.value ?? stages.error, null, 1));
caught().startCpuProfiler('files');
await box.run(`${base}; for (let k = 0; k < ${R}; k++) to_parquet(r); 1`);
const [{ profile }] = await caught().stopCpuProfiler('files');
const self = new Map();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
let total = 0;
profile.samples.forEach((id, i) => {
  const f = byId.get(id).callFrame;
  const key = `${f.functionName || '(anonymous)'}:${f.lineNumber}`;
  self.set(key, (self.get(key) ?? 0) + profile.timeDeltas[i]);
  total += profile.timeDeltas[i];
});
console.log(`\nto_parquet x${R}: top self time (share of the profile)`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20))
  console.log(`${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
await box.close();
await shutdown();
