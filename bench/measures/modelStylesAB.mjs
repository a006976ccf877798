// Two builds side by side on the model-code styles (bench/model-styles.mjs), for a change to the
// run path: both builds loaded in one process, one inline session per build and question, their
// runs interleaved (machine noise hits both alike); the figure is the isolate's CPU time of the run
// (`stats.cpuMs`) and wall time, p50 of `reps` after `warmup`. Answers must agree between builds.
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv BENCH_ARGS='{"base":"<dist dir>","reps":7}' \
//     node --no-node-snapshot bench/measures/modelStylesAB.mjs
// BENCH_ARGS: `base` (required: the other build's dist folder; it must sit where its imports
// resolve, e.g. inside the repo), `styles`, `only` (question ids), `reps`, `warmup`, `cacheDir`.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MODEL_STYLE_QUESTIONS, STYLES, answerOfRun } from '../model-styles.mjs';
import { sameAnswer } from '../questions.mjs';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';

const r3 = (x) => Math.round(x * 1000) / 1000;
const geo = (xs) => (xs.length ? r3(Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length)) : null);

/** @param {{ base: string, reps?: number, warmup?: number, styles?: string[], only?: string[], cacheDir?: string }} args */
export async function measureModelStylesAB(args) {
  if (!args?.base) throw new Error('BENCH_ARGS.base: the dist folder of the build to compare with');
  const { reps = 7, warmup = 2, cacheDir = CACHE_DIR, only } = args;
  const styles = args.styles ?? STYLES;
  const questions = only ? MODEL_STYLE_QUESTIONS.filter((q) => only.includes(q.id)) : MODEL_STYLE_QUESTIONS;
  const builds = {
    before: await import(pathToFileURL(resolve(args.base, 'src/index.js')).href),
    after: await import(dist('src/index.js')),
  };
  const out = {};
  const ratios = {};
  for (const q of questions) {
    const boxes = {};
    for (const [k, m] of Object.entries(builds)) {
      boxes[k] = await m.createSandbox({ dataPath: CSV, cacheDir, isolation: 'inline' });
      await boxes[k].run('award_data.numRows()');
    }
    try {
      const row = {};
      for (const s of styles) {
        const samples = { before: { cpu: [], wall: [] }, after: { cpu: [], wall: [] } };
        const answers = {};
        for (let i = -warmup; i < reps; i++) {
          for (const k of i % 2 ? ['before', 'after'] : ['after', 'before']) {
            const t = performance.now();
            const r = await boxes[k].run(q[s]);
            const ms = performance.now() - t;
            if (!r.ok) throw new Error(`run failed: ${q.id} (${s}, ${k}): ${JSON.stringify(r.error)}`);
            answers[k] ??= answerOfRun(r);
            if (i >= 0) {
              samples[k].cpu.push(r.stats.cpuMs);
              samples[k].wall.push(ms);
            }
          }
        }
        const e = {
          cpuBefore: summarize(samples.before.cpu).p50,
          cpuAfter: summarize(samples.after.cpu).p50,
          cpuMinBefore: Math.min(...samples.before.cpu),
          cpuMinAfter: Math.min(...samples.after.cpu),
          wallBefore: summarize(samples.before.wall).p50,
          wallAfter: summarize(samples.after.wall).p50,
          agree: sameAnswer(answers.before, answers.after),
        };
        e.cpuRatio = r3(e.cpuAfter / Math.max(e.cpuBefore, 1e-3));
        e.cpuMinRatio = r3(e.cpuMinAfter / Math.max(e.cpuMinBefore, 1e-3));
        e.wallRatio = r3(e.wallAfter / Math.max(e.wallBefore, 1e-3));
        (ratios[s] ??= { cpu: [], cpuMin: [], wall: [] }).cpu.push(e.cpuRatio);
        ratios[s].cpuMin.push(e.cpuMinRatio);
        ratios[s].wall.push(e.wallRatio);
        row[s] = e;
        if (!e.agree) log(`  DISAGREE ${q.id} (${s})`);
      }
      out[q.id] = row;
      log(
        `ab ${q.id}: ${styles.map((s) => `${s} cpu ${row[s].cpuBefore.toFixed(1)} -> ${row[s].cpuAfter.toFixed(1)} ms (${row[s].cpuRatio}x; min ${row[s].cpuMinRatio}x)`).join('; ')}`,
      );
    } finally {
      for (const b of Object.values(boxes)) await b.close();
    }
  }
  await Promise.all(Object.values(builds).map((m) => m.shutdown()));
  const summary = {};
  for (const [s, r] of Object.entries(ratios)) {
    summary[s] = { cpuGeomean: geo(r.cpu), cpuMinGeomean: geo(r.cpuMin), wallGeomean: geo(r.wall) };
    log(
      `ab ${s}: after/before geo-mean: isolate CPU p50 ${summary[s].cpuGeomean}x, min ${summary[s].cpuMinGeomean}x; wall p50 ${summary[s].wallGeomean}x`,
    );
  }
  return { questions: out, summary, reps, warmup };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  emit(await measureModelStylesAB(measureArgs()));
}
