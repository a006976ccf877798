// Issue 25 item 3: every documented Series/DataFrame method, one by one, on the full file, four
// ways: the Series form the tool description advertises, the plain loop over `award_data.array()`
// it replaces, pandas (the same question on the same CSV, timed inside Python) and DuckDB (its SQL
// on the same CSV loaded into an in-memory table, bench/lib/duckTable.mjs). The Series and loop
// forms are timed inside the isolate, interleaved `--reps` times in one run (so the machine's load
// hits them alike); pandas inside its worker (perf_counter); DuckDB in this process around
// `runAndReadAll`. Figures are medians. `npm run bench` runs the same table as its `series` measure
// (bench/measures/seriesMethods.mjs).
//   node --no-node-snapshot bench/series-methods.mjs [--data FILE] [--cache-dir DIR] [--reps 5]
//     [--only 'substring[;substring...]'] [--duck-threads 1] [--json out.json]
// SBIRTOOLS_BENCH_NO_PANDAS=1 leaves the pandas column empty, SBIRTOOLS_BENCH_NO_DUCKDB=1 DuckDB's.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { PandasWorker } from './lib/pandasWorker.mjs';
import { CSV, dist } from './lib/paths.mjs';
import { openDuckTable } from './lib/duckTable.mjs';
import { SERIES_METHODS, measureSeriesMethods } from './lib/seriesMethods.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const dataPath = arg('--data', CSV);
const reps = Number(arg('--reps', 5));
const only = arg('--only', '');
const jsonOut = arg('--json', '');
const cacheDir = arg('--cache-dir', undefined);
const duckThreads = Number(arg('--duck-threads', 1));

function pandasPython() {
  const p = spawnSync('sh', ['scripts/install-pandas.sh'], { encoding: 'utf8' });
  return p.status === 0 ? p.stdout.trim().split('\n').pop() : null;
}

const { createSandbox, shutdown } = await import(dist('src/index.js'));
const python = process.env.SBIRTOOLS_BENCH_NO_PANDAS ? null : pandasPython();
const box = await createSandbox({ dataPath, cacheDir, timeoutMs: 300_000, memoryLimitMb: 3072 });
const pandas = python ? await PandasWorker.start(python, dataPath) : null;
const duck = process.env.SBIRTOOLS_BENCH_NO_DUCKDB ? null : await openDuckTable(dataPath, { threads: duckThreads });
try {
  const info = await box.run('award_data.numRows()');
  console.log(
    `rows: ${info.value}; ${reps} evaluations per figure (median); pandas: ${pandas ? 'yes' : 'no'}; DuckDB: ${duck ? `${duck.version}, ${duck.threads} thread(s), loaded in ${Math.round(duck.loadMs)} ms` : 'no'}`,
  );
  console.log(
    '| method | Series ms | plain loop ms | pandas ms | DuckDB ms | Series / loop | Series / pandas | Series / DuckDB |\n| --- | --: | --: | --: | --: | --: | --: | --: |',
  );
  const f = (x) => (x === null ? '' : x < 10 ? x.toFixed(2) : x.toFixed(1));
  const ratio = (a, b) => (b === null ? '' : `${(Math.max(a, 0.01) / Math.max(b, 0.01)).toFixed(2)}x`);
  const rows = await measureSeriesMethods({
    box,
    pandas,
    duck,
    reps,
    methods: SERIES_METHODS.filter((m) => only.split(';').some((o) => m.name.includes(o))),
    onRow: (r) =>
      console.log(
        `| ${r.name.replace(/\|/g, '\\|')} | ${f(r.seriesMs)} | ${f(r.loopMs)} | ${f(r.pandasMs)} | ${f(r.duckMs)} | ${ratio(r.seriesMs, r.loopMs)} | ${ratio(r.seriesMs, r.pandasMs)} | ${ratio(r.seriesMs, r.duckMs)}${r.duckAgrees === false ? ' (answers differ)' : ''} |`,
      ),
  });
  const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
  const geoOf = (key) => {
    const withIt = rows.filter((r) => r[key] !== null);
    return withIt.length
      ? `${geo(withIt.map((r) => Math.max(r.seriesMs, 0.01) / Math.max(r[key], 0.01))).toFixed(2)}x over ${withIt.length}`
      : '—';
  };
  console.log(
    `\ngeo-mean Series / loop ${geoOf('loopMs')}; Series / pandas ${geoOf('pandasMs')}; Series / DuckDB ${geoOf('duckMs')}`,
  );
  if (jsonOut)
    writeFileSync(
      jsonOut,
      JSON.stringify({ reps, duckdb: duck && { version: duck.version, threads: duck.threads }, rows }, null, 2),
    );
} finally {
  await pandas?.close();
  duck?.close();
  await box.close();
  await shutdown();
}
