// Two builds side by side on the styles bench (bench/model-styles.mjs), interleaved, for one style:
// - warm: per question one session per build and one pandas worker; each repetition runs the four
//   styles in both sessions (which build goes first alternating) and pandas, as
//   bench/measures/modelStyles.mjs does for one build; the style's p50 of `reps` after 2;
// - first run: the styles bench's own first-run child (a fresh process and sandbox opened with
//   `award_data.numRows()`, then the question timed), each build in turn, `firstRuns` times; median.
// A prelude change needs this (modelStylesAB.mjs loads one prelude bundle for both arms).
//   node --no-node-snapshot bench/model-styles-builds.mjs --base /work/wt/base/dist --style verbs \
//     --ids missingAbstracts,largestAward --reps 5 --first-runs 3 [--cache-dir bench/data/cache]
// Prints JSON { [id]: { pandas, warm: { base, branch }, first: { base, branch } } } (ms).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { MODEL_STYLE_QUESTIONS, STYLES } from './model-styles.mjs';
import { PandasWorker } from './lib/pandasWorker.mjs';
import { CACHE_DIR, CSV, DIST, MEASURES } from './lib/paths.mjs';

const { values: a } = parseArgs({
  options: {
    base: { type: 'string' },
    style: { type: 'string', default: 'verbs' },
    ids: { type: 'string' },
    reps: { type: 'string', default: '5' },
    'first-runs': { type: 'string', default: '3' },
    'cache-dir': { type: 'string', default: CACHE_DIR },
    python: { type: 'string', default: '/usr/bin/python3' },
  },
});
if (!a.base) throw new Error('model-styles-builds: --base <dist directory of the other build> is required');
const builds = { base: a.base, branch: DIST };
const ids = a.ids ? a.ids.split(',') : MODEL_STYLE_QUESTIONS.map((q) => q.id);
const reps = Number(a.reps);
const firstRuns = Number(a['first-runs']);
const med = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
const load = (dist) => import(pathToFileURL(join(dist, 'src', 'index.js')).href);
const libs = { base: await load(builds.base), branch: await load(builds.branch) };
const opts = { dataPath: CSV, cacheDir: a['cache-dir'] };
const pandas = await PandasWorker.start(a.python, CSV);
const out = {};

function firstRun(build, code) {
  const p = spawnSync(process.execPath, ['--no-node-snapshot', join(MEASURES, 'modelStyles.mjs')], {
    encoding: 'utf8',
    env: {
      ...process.env,
      SBIRTOOLS_DIST: builds[build],
      BENCH_MODEL_STYLES_CHILD: JSON.stringify({ code, cacheDir: a['cache-dir'] }),
    },
  });
  const f = JSON.parse(p.stdout.trim().split('\n').pop() ?? 'null');
  if (!f?.ok) throw new Error(`first run failed (${build}): ${p.stderr.slice(-2000)}`);
  return f.ms;
}

try {
  for (const q of MODEL_STYLE_QUESTIONS.filter((x) => ids.includes(x.id))) {
    const names = ['base', 'branch'];
    const boxes = [await libs.base.createSandbox(opts), await libs.branch.createSandbox(opts)];
    for (const b of boxes) await b.run('award_data.numRows()');
    const warm = { base: [], branch: [] };
    const pd = [];
    for (let i = -2; i < reps; i++) {
      for (const k of i % 2 ? [0, 1] : [1, 0]) {
        for (const s of STYLES) {
          const t = performance.now();
          const r = await boxes[k].run(q[s]);
          const ms = performance.now() - t;
          if (!r.ok) throw new Error(`${q.id} (${s}, ${names[k]}): ${JSON.stringify(r.error)}`);
          if (s === a.style && i >= 0) warm[names[k]].push(ms);
        }
      }
      const p = await pandas.ask(q.py);
      if (!p.ok) throw new Error(`pandas failed: ${q.id}: ${p.value}`);
      if (i >= 0) pd.push(p.ms);
    }
    for (const b of boxes) await b.close();
    const first = { base: [], branch: [] };
    for (let r = 0; r < firstRuns; r++)
      for (const b of r % 2 ? ['base', 'branch'] : ['branch', 'base']) first[b].push(firstRun(b, q[a.style]));
    out[q.id] = {
      pandas: med(pd),
      warm: { base: med(warm.base), branch: med(warm.branch) },
      first: firstRuns ? { base: med(first.base), branch: med(first.branch), runs: first } : null,
    };
    process.stderr.write(`${q.id}: ${JSON.stringify(out[q.id])}\n`);
  }
} finally {
  await pandas.close();
  await libs.base.shutdown();
  await libs.branch.shutdown();
}
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);
