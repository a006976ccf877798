// Issue 25 item 3: every documented Series/DataFrame method, one by one, on the full file, three
// ways: the Series form the tool description advertises, the plain loop over `award_data.array()`
// it replaces, and pandas (the same question on the same CSV, timed inside Python). The Series and
// loop forms are timed inside the isolate, interleaved `--reps` times in one run (so the machine's
// load hits them alike); pandas inside its worker (perf_counter). Figures are medians.
//   node bench/series-methods.mjs [--data FILE] [--reps 5] [--only substring] [--json out.json]
// Without pandas (scripts/install-pandas.sh prints the interpreter) the pandas column is empty.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createSandbox, shutdown } from '../dist/src/index.js';
import { PandasWorker } from './lib/pandasWorker.mjs';
import { CSV } from './lib/paths.mjs';
import { SERIES_METHODS } from './lib/seriesMethods.mjs';

const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : dflt; };
const dataPath = arg('--data', CSV);
const reps = Number(arg('--reps', 5));
const only = arg('--only', '');
const jsonOut = arg('--json', '');
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

/**
 * Times `a` and `b` `reps` times each, interleaved, in the isolate (Date.now: the isolate has no
 * performance.now). A first evaluation of each warms the columns and sizes an inner repeat so one
 * measurement lasts ~30 ms; the figure is per evaluation.
 */
const timed = (a, b) => `const __fa = () => { ${a}; }, __fb = () => { ${b}; };
  const __size = (f) => { const t = Date.now(); f(); const ms = Date.now() - t; return Math.max(1, Math.min(200, Math.ceil(30 / Math.max(ms, 0.1)))); };
  const __na = __size(__fa), __nb = __size(__fb);
  const __run = (f, n) => { const t = Date.now(); for (let j = 0; j < n; j++) f(); return (Date.now() - t) / n; };
  const __ta = [], __tb = [];
  for (let __k = 0; __k < ${reps}; __k++) { __ta.push(__run(__fa, __na)); __tb.push(__run(__fb, __nb)); }
  [__ta, __tb]`;

function pandasPython() {
  const p = spawnSync('sh', ['scripts/install-pandas.sh'], { encoding: 'utf8' });
  return p.status === 0 ? p.stdout.trim().split('\n').pop() : null;
}

const methods = SERIES_METHODS.filter((m) => m.name.includes(only));
const python = process.env.SBIRTOOLS_BENCH_NO_PANDAS ? null : pandasPython();
const box = await createSandbox({ dataPath, timeoutMs: 300_000, memoryLimitMb: 3072 });
const pandas = python ? await PandasWorker.start(python, dataPath) : null;
const rows = [];
try {
  const info = await box.run('award_data.numRows()');
  console.log(`rows: ${info.value}; ${reps} evaluations per figure (median); pandas: ${pandas ? 'yes' : 'no'}`);
  console.log('| method | Series ms | plain loop ms | pandas ms | Series / loop | Series / pandas |\n| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const m of methods) {
    const r = await box.run(timed(m.series, m.loop));
    if (!r.ok) { console.log(`| ${m.name} | error: ${r.error?.message?.slice(0, 120)} | | | | |`); continue; }
    const s = median(r.value[0]);
    const l = median(r.value[1]);
    let p = null;
    if (pandas && m.pandas) {
      const ps = [];
      for (let i = 0; i < reps + 1; i++) {
        const a = await pandas.ask(m.pandas);
        if (!a.ok) { ps.length = 0; console.error(`pandas ${m.name}: ${a.value}`); break; }
        if (i > 0) ps.push(a.computeMs);
      }
      if (ps.length) p = median(ps);
    }
    rows.push({ name: m.name, seriesMs: s, loopMs: l, pandasMs: p });
    const f = (x) => (x === null ? '' : x < 10 ? x.toFixed(2) : x.toFixed(1));
    console.log(`| ${m.name} | ${f(s)} | ${f(l)} | ${f(p)} | ${(s / Math.max(l, 0.01)).toFixed(2)} | ${p === null ? '' : (s / Math.max(p, 0.01)).toFixed(2)} |`);
  }
  const withP = rows.filter((r) => r.pandasMs !== null);
  const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
  if (rows.length) console.log(`\ngeo-mean Series / loop ${geo(rows.map((r) => Math.max(r.seriesMs, 0.01) / Math.max(r.loopMs, 0.01))).toFixed(2)}`);
  if (withP.length) console.log(`geo-mean Series / pandas ${geo(withP.map((r) => Math.max(r.seriesMs, 0.01) / Math.max(r.pandasMs, 0.01))).toFixed(2)}`);
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ reps, rows }, null, 2));
} finally {
  await pandas?.close();
  await box.close();
  await shutdown();
}
