// Issue 25 item 3: every documented Series/DataFrame method, one by one, on the full file, three
// ways: the Series form the tool description advertises, the plain loop over `award_data.array()`
// it replaces, and pandas (the same question on the same CSV, timed inside Python). The Series and
// loop forms are timed inside the isolate, interleaved `--reps` times in one run (so the machine's
// load hits them alike); pandas inside its worker (perf_counter). Figures are medians. `npm run
// bench` runs the same table as its `series` measure (bench/measures/seriesMethods.mjs).
//   node --no-node-snapshot bench/series-methods.mjs [--data FILE] [--reps 5] [--only substring] [--json out.json]
// SBIRTOOLS_BENCH_NO_PANDAS=1 leaves the pandas column empty.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createSandbox, shutdown } from '../dist/src/index.js';
import { PandasWorker } from './lib/pandasWorker.mjs';
import { CSV } from './lib/paths.mjs';
import { SERIES_METHODS, measureSeriesMethods } from './lib/seriesMethods.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const dataPath = arg('--data', CSV);
const reps = Number(arg('--reps', 5));
const only = arg('--only', '');
const jsonOut = arg('--json', '');

function pandasPython() {
  const p = spawnSync('sh', ['scripts/install-pandas.sh'], { encoding: 'utf8' });
  return p.status === 0 ? p.stdout.trim().split('\n').pop() : null;
}

const python = process.env.SBIRTOOLS_BENCH_NO_PANDAS ? null : pandasPython();
const box = await createSandbox({ dataPath, timeoutMs: 300_000, memoryLimitMb: 3072 });
const pandas = python ? await PandasWorker.start(python, dataPath) : null;
try {
  const info = await box.run('award_data.numRows()');
  console.log(`rows: ${info.value}; ${reps} evaluations per figure (median); pandas: ${pandas ? 'yes' : 'no'}`);
  console.log(
    '| method | Series ms | plain loop ms | pandas ms | Series / loop | Series / pandas |\n| --- | ---: | ---: | ---: | ---: | ---: |',
  );
  const f = (x) => (x === null ? '' : x < 10 ? x.toFixed(2) : x.toFixed(1));
  const rows = await measureSeriesMethods({
    box,
    pandas,
    reps,
    methods: SERIES_METHODS.filter((m) => m.name.includes(only)),
    onRow: (r) =>
      console.log(
        `| ${r.name} | ${f(r.seriesMs)} | ${f(r.loopMs)} | ${f(r.pandasMs)} | ${(r.seriesMs / Math.max(r.loopMs, 0.01)).toFixed(2)} | ${r.pandasMs === null ? '' : (r.seriesMs / Math.max(r.pandasMs, 0.01)).toFixed(2)} |`,
      ),
  });
  const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
  const withP = rows.filter((r) => r.pandasMs !== null);
  if (rows.length)
    console.log(
      `\ngeo-mean Series / loop ${geo(rows.map((r) => Math.max(r.seriesMs, 0.01) / Math.max(r.loopMs, 0.01))).toFixed(2)}`,
    );
  if (withP.length)
    console.log(
      `geo-mean Series / pandas ${geo(withP.map((r) => Math.max(r.seriesMs, 0.01) / Math.max(r.pandasMs, 0.01))).toFixed(2)}`,
    );
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ reps, rows }, null, 2));
} finally {
  await pandas?.close();
  await box.close();
  await shutdown();
}
