// Issue 25 item 3, for `npm run bench`: the per-method Series table (bench/lib/seriesMethods.mjs):
// each documented Series/DataFrame method as the Series form, the plain loop it replaces, pandas
// and DuckDB (the same CSV in an in-memory table, bench/lib/duckTable.mjs; `"duckdb": false` skips
// it), warm, in one session, one pandas worker and one DuckDB connection.
//   BENCH_ARGS='{"reps":7,"python":"/usr/bin/python3"}' node --no-node-snapshot bench/measures/seriesMethods.mjs
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { PandasWorker } from '../lib/pandasWorker.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { measureSeriesMethods } from '../lib/seriesMethods.mjs';
import { openDuckTable } from '../lib/duckTable.mjs';

const { reps = 7, python, cacheDir = CACHE_DIR, duckdb = true, duckThreads = 1 } = measureArgs();
const { createSandbox, shutdown } = await import(dist('src/index.js'));
const box = await createSandbox({ dataPath: CSV, cacheDir, timeoutMs: 300_000, memoryLimitMb: 3072 });
const pandas = python ? await PandasWorker.start(python, CSV) : undefined;
const duck = duckdb ? await openDuckTable(CSV, { threads: duckThreads }) : undefined;
try {
  const methods = await measureSeriesMethods({
    box,
    pandas,
    duck,
    reps,
    onRow: (r) =>
      log(
        `series ${r.name}: Series ${r.seriesMs.toFixed(2)} ms, loop ${r.loopMs.toFixed(2)} ms, pandas ${r.pandasMs?.toFixed(2) ?? '—'} ms, DuckDB ${r.duckMs?.toFixed(2) ?? '—'} ms`,
      ),
  });
  emit({ reps, duckdb: duck ? { version: duck.version, threads: duck.threads } : null, methods });
} finally {
  await pandas?.close();
  duck?.close();
  await box.close();
  await shutdown();
}
