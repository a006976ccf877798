// What lazy per-column loading buys: a fresh session's first query touching 2 columns, vs the
// same query after forcing every column into the isolate (`award_data.array(c)` for each), on a
// fresh holder (columns read from the cache file) and on a warm one (already read), with the
// holder's RSS.
//   BENCH_ARGS='{"runs":3}' node bench/measures/lazyColumns.mjs
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { memOf } from '../lib/procMem.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';
import { WARM_QUESTIONS } from '../questions.mjs';

// a generous deadline: forcing every column (300 MB of Abstract text) takes long on a loaded VM
const { runs = 3 } = measureArgs();
const { createPool } = await import(dist('src/index.js'));
const query = WARM_QUESTIONS.find((q) => q.id === 'phase2Since2015').js;
const forceAll = 'award_data.columnNames().map(c => award_data.array(c).length).length';
const trial = async (box, all) => {
  const t = performance.now();
  if (all) {
    const r = await box.run(forceAll);
    if (!r.ok) throw new Error(JSON.stringify(r.error));
  }
  const r = await box.run(query);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return performance.now() - t;
};
const rows = { freshHolder: { two: [], all: [] }, warmHolder: { two: [], all: [] }, holderRssMb: { two: [], all: [] } };
for (let i = 0; i < runs; i++) {
  for (const k of ['two', 'all']) {
    const pool = createPool({ size: 1 });
    const a = await pool.createSandbox({ dataPath: CSV, cacheDir: CACHE_DIR, timeoutMs: 120_000 });
    rows.freshHolder[k].push(await trial(a, k === 'all'));
    rows.holderRssMb[k].push(memOf(pool.stats().pids[0]).rssMb);
    await a.close();
    const b = await pool.createSandbox({ dataPath: CSV, cacheDir: CACHE_DIR, timeoutMs: 120_000 });
    rows.warmHolder[k].push(await trial(b, k === 'all'));
    await b.close();
    await pool.close();
  }
}
const s = (o) => ({ twoColumns: summarize(o.two), allColumns: summarize(o.all) });
const result = {
  query,
  forceAll,
  freshHolderMs: s(rows.freshHolder),
  warmHolderMs: s(rows.warmHolder),
  holderRssMb: s(rows.holderRssMb),
};
log(
  `lazy columns: fresh holder ${result.freshHolderMs.twoColumns.p50.toFixed(0)} ms (2 columns) vs ${result.freshHolderMs.allColumns.p50.toFixed(0)} ms (all)`,
);
emit(result);
