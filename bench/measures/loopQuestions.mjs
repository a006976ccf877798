// Loop-style questions (issue 12, bench/questions-loop.mjs), warm: one sandbox session (process
// isolation, the default) and one persistent pandas worker with the frame loaded, asked in turn
// on every repetition so machine noise hits both alike. Reports per question the first run in the
// session (text pages not yet decoded), the warm p50 of both, their ratio and whether the answers
// agree; then the geometric mean of the ratios.
//   BENCH_ARGS='{"reps":7,"python":"/usr/bin/python3"}' node bench/measures/loopQuestions.mjs
// `baselineDist` (a dist/ of an older build in a folder that also holds its package.json, as in
// verbQuestions.mjs) asks the same questions of that build in the same run, in turn: `base` and
// `baseRatio` per question, `baseGeomeanRatio` in the summary.
// As a module: `await measureLoopQuestions({ reps, python })` returns the same JSON.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LOOP_QUESTIONS } from '../questions-loop.mjs';
import { answerOfPandas, answerOfRun, sameAnswer } from '../questions.mjs';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { PandasWorker } from '../lib/pandasWorker.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';

const r3 = (x) => Math.round(x * 1000) / 1000;

/**
 * Warm p50 of every loop question, sbirtools vs pandas, and the ratios.
 * @param {{ reps?: number, warmup?: number, python?: string | null, csv?: string, cacheDir?: string, only?: string[], baselineDist?: string }} args
 *   python: the interpreter with pandas (default /usr/bin/python3 when present; null skips pandas)
 */
export async function measureLoopQuestions(args = {}) {
  const { reps = 7, warmup = 1, csv = CSV, cacheDir = CACHE_DIR, only } = args;
  const python = args.python === undefined ? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : null) : args.python;
  const { createSandbox, shutdown } = await import(dist('src/index.js'));
  const box = await createSandbox({ dataPath: csv, cacheDir });
  const baseline = args.baselineDist
    ? await import(pathToFileURL(join(resolve(args.baselineDist), 'src/index.js')).href)
    : null;
  const baseBox = baseline ? await baseline.createSandbox({ dataPath: csv, cacheDir }) : null;
  const pandas = python ? await PandasWorker.start(python, csv) : undefined;
  const questions = only ? LOOP_QUESTIONS.filter((q) => only.includes(q.id)) : LOOP_QUESTIONS;
  const out = {};
  try {
    await box.run('award_data.numRows()'); // the session exists before the first question
    await baseBox?.run('award_data.numRows()');
    for (const q of questions) {
      const samples = { sbirtools: [], pandas: [], base: [] };
      let first;
      let answer;
      let pandasAnswer;
      let heapUsedMb = 0;
      for (let i = -warmup; i < reps; i++) {
        const t = performance.now();
        const r = await box.run(q.js);
        const ms = performance.now() - t;
        if (!r.ok) throw new Error(`run failed: ${q.id}: ${JSON.stringify(r.error)}`);
        first ??= ms;
        answer ??= answerOfRun(r);
        heapUsedMb = Math.max(heapUsedMb, r.stats?.heapUsedMb ?? 0);
        if (i >= 0) samples.sbirtools.push(ms);
        if (baseBox) {
          const tb = performance.now();
          const rb = await baseBox.run(q.js);
          if (i >= 0) samples.base.push(performance.now() - tb);
          if (!rb.ok) throw new Error(`baseline run failed: ${q.id}: ${JSON.stringify(rb.error)}`);
        }
        if (pandas) {
          const a = await pandas.ask(q.py);
          if (!a.ok) throw new Error(`pandas failed: ${q.id}: ${a.value}`);
          pandasAnswer ??= answerOfPandas(a);
          if (i >= 0) samples.pandas.push(a.ms);
        }
      }
      const s = summarize(samples.sbirtools);
      const p = pandas ? summarize(samples.pandas) : null;
      const ratio = p ? r3(s.p50 / p.p50) : null;
      const agree = pandas ? sameAnswer(answer, pandasAnswer) : null;
      const b = baseBox ? summarize(samples.base) : null;
      const baseRatio = b && p ? r3(b.p50 / p.p50) : null;
      out[q.id] = {
        label: q.label,
        firstMs: r3(first),
        sbirtools: s,
        pandas: p,
        ratio,
        answersAgree: agree,
        heapUsedMb,
        answer,
        ...(b ? { base: b, baseRatio } : {}),
      };
      log(
        `loop ${q.id}: first ${first.toFixed(1)} ms, warm p50 ${s.p50.toFixed(1)} ms${b ? ` (baseline ${b.p50.toFixed(1)} ms)` : ''}${p ? `, pandas ${p.p50.toFixed(1)} ms, ratio ${ratio}x${b ? ` (baseline ${baseRatio}x)` : ''}, agree=${agree}` : ''}`,
      );
    }
  } finally {
    await pandas?.close();
    await baseBox?.close();
    await box.close();
    await shutdown();
    await baseline?.shutdown();
  }
  const ratios = Object.values(out)
    .map((q) => q.ratio)
    .filter((x) => typeof x === 'number' && x > 0);
  const geo = (xs) => (xs.length ? r3(Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length)) : null);
  const geomean = geo(ratios);
  const baseRatios = Object.values(out)
    .map((q) => q.baseRatio)
    .filter((x) => typeof x === 'number' && x > 0);
  const summary = {
    questions: Object.keys(out).length,
    geomeanRatio: geomean,
    worstRatio: ratios.length ? Math.max(...ratios) : null,
    atMostHalf: ratios.filter((x) => x <= 0.5).length,
    allAgree: pandas ? Object.values(out).every((q) => q.answersAgree) : null,
    ...(baseRatios.length ? { baseGeomeanRatio: geo(baseRatios) } : {}),
  };
  log(
    `loop questions: geomean ${geomean}x pandas${summary.baseGeomeanRatio ? ` (baseline ${summary.baseGeomeanRatio}x)` : ''}, worst ${summary.worstRatio}x, ${summary.atMostHalf}/${ratios.length} at <= 0.5x, answers agree: ${summary.allAgree}`,
  );
  return { questions: out, summary, reps };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  emit(await measureLoopQuestions(measureArgs()));
}
