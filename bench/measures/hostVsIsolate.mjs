// 2e, the same Arquero query inside the isolate vs on the host. Both sides time the query in a
// loop of their own (no IPC, no result serialization): the host over an `arquero` table built
// from the same columns via dist/src/data (decoded once to plain JS arrays), the isolate over
// award_data (the prelude's lazily fetched columns) and, in a second session, over a copy of
// those columns as plain JS arrays (the same representation as the host: this isolates the
// column representation from the isolate itself). V8's type feedback depends on what ran
// before, so each query runs with no history on every side: a fresh host process, a fresh
// session per table kind.
//   BENCH_ARGS='{"samples":11,"loops":3}' node bench/measures/hostVsIsolate.mjs
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as aq from 'arquero';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';

const { samples = 11, loops = 3 } = measureArgs();
const QUERIES = {
  agencyTop5: {
    cols: ['Agency', 'Award Amount'],
    q: "award_data.groupby('Agency').rollup({ total: op.sum('Award Amount') }).orderby(aq.desc('total')).slice(0, 5).objects()",
  },
  phase2Since2015: {
    cols: ['Phase', 'Award Year'],
    q: "award_data.filter(d => d.Phase === 'Phase II' && d['Award Year'] >= 2015).numRows()",
  },
  quantumTitles: {
    cols: ['Award Title'],
    q: "award_data.filter(d => op.match(d['Award Title'], /quantum/i) != null).numRows()",
  },
};

// The same timing loop on both sides: warm up twice, then `samples` samples of `loops` calls.
const timingLoop = (now) =>
  `(f) => { f(); f(); const ms = []; for (let s = 0; s < ${samples}; s++) { const t = ${now}; for (let i = 0; i < ${loops}; i++) f(); ms.push((${now} - t) / ${loops}); } return { ms, value: JSON.stringify(f()) }; }`;

if (process.argv[2] === '--probe-host') {
  // a fresh host process per query: the table of plain arrays, then the timing loop
  const { q, cols } = QUERIES[process.argv[3]];
  const { openDataset, resolveDataSource } = await import(dist('src/data/index.js'));
  const ds = await openDataset(resolveDataSource({ dataPath: CSV, cacheDir: CACHE_DIR, env: {} }));
  const dec = new TextDecoder();
  const n = ds.meta.numRows;
  function plainArray(c) {
    if (c.kind === 'float64')
      return Array.from({ length: n }, (_, i) =>
        c.valid[i] ? (c.type === 'date' ? new Date(c.values[i]) : c.values[i]) : null,
      );
    if (c.kind === 'dict') {
      const dict = Array.from({ length: c.dictOffsets.length - 1 }, (_, k) =>
        dec.decode(c.dictBytes.subarray(c.dictOffsets[k], c.dictOffsets[k + 1])),
      );
      return Array.from(c.codes, (k) => (k < 0 ? null : dict[k]));
    }
    if (c.kind === 'utf8')
      return Array.from({ length: n }, (_, i) =>
        c.valid[i] ? dec.decode(c.bytes.subarray(c.offsets[i], c.offsets[i + 1])) : null,
      );
    return Array.from({ length: n }, (_, i) => (c.valid[i] ? c.values[i] !== 0 : null));
  }
  const hostTable = aq.table(Object.fromEntries(cols.map((c) => [c, plainArray(ds.loadColumn(c))])));
  const hostLoop = new Function(`return ${timingLoop('performance.now()')}`)();
  process.stdout.write(
    `${JSON.stringify(hostLoop(new Function('award_data', 'aq', 'op', `return () => ${q}`)(hostTable, aq, aq.op)))}\n`,
  );
  process.exit(0);
}

// Per query: a fresh host process, then a fresh session per table kind (in a holder process).
const self = fileURLToPath(import.meta.url);
const { createSandbox, shutdown } = await import(dist('src/index.js'));
const out = {};
for (const [id, { q, cols }] of Object.entries(QUERIES)) {
  const p = spawnSync(process.execPath, [self, '--probe-host', id], { encoding: 'utf8' });
  if (p.status !== 0) throw new Error(`host probe ${id} failed: ${p.stderr.slice(-1500)}`);
  const host = JSON.parse(p.stdout.trim().split('\n').pop());
  const copy = `const plain_data = aq.table({ ${cols.map((c) => `${JSON.stringify(c)}: Array.from(award_data.array(${JSON.stringify(c)}))`).join(', ')} });`;
  const inIsolate = {};
  for (const table of ['award_data', 'plain_data']) {
    const box = await createSandbox({ dataPath: CSV, cacheDir: CACHE_DIR });
    const setup = await box.run(
      `${table === 'plain_data' ? copy : ''}\nconst __loop = ${timingLoop('Date.now()')};\n0`,
    );
    if (!setup.ok) throw new Error(JSON.stringify(setup.error));
    const r = await box.run(`__loop(() => ${q.replace(/^award_data/, table)})`);
    if (!r.ok) throw new Error(`${id} in ${table}: ${JSON.stringify(r.error)}`);
    inIsolate[table] = r.value;
    await box.close();
  }
  const agree = host.value === inIsolate.award_data.value && host.value === inIsolate.plain_data.value;
  out[id] = {
    query: q,
    host: summarize(host.ms),
    isolate: summarize(inIsolate.award_data.ms),
    isolatePlainArrays: summarize(inIsolate.plain_data.ms),
    answersAgree: agree,
  };
  log(
    `host vs isolate ${id}: host ${out[id].host.p50.toFixed(1)} ms, isolate ${out[id].isolate.p50.toFixed(1)} ms, isolate plain arrays ${out[id].isolatePlainArrays.p50.toFixed(1)} ms; agree=${agree}`,
  );
}
await shutdown();
emit({ samples, loops, queries: out });
