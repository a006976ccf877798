// Issue 12, part B: group-by, value_counts, filter and top-n questions in three forms (prelude,
// plain Arquero, pandas), warm, side by side in one run: every repetition asks each form in turn
// so machine noise hits all alike. The answer of every form is checked against pandas.
// `baselineDist` (the dist/ of a build of the code before the fast paths, in a folder that also
// holds that build's package.json: the runtime finds its bundle and holder from the package root)
// adds its timings as `base.js`/`base.aq`, so before and after are compared in the same run.
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv BENCH_ARGS='{"reps":20,"python":"/usr/bin/python3"}' \
//     node --no-node-snapshot bench/measures/verbQuestions.mjs
import { VERB_QUESTIONS, verbAnswerOfPandas, verbAnswerOfRun } from '../verbQuestions.mjs';
import { sameAnswer } from '../questions.mjs';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { PandasWorker } from '../lib/pandasWorker.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import { summarize } from '../lib/stats.mjs';

const { reps = 20, warmup = 3, python, cacheDir = CACHE_DIR, only, baselineDist } = measureArgs();
const { createSandbox, shutdown } = await import(dist('src/index.js'));
const baseline = baselineDist ? await import(pathToFileURL(join(resolve(baselineDist), 'src/index.js')).href) : null;

const box = await createSandbox({ dataPath: CSV, cacheDir });
const baseBox = baseline ? await baseline.createSandbox({ dataPath: CSV, cacheDir }) : null;
const pandas = python ? await PandasWorker.start(python, CSV) : undefined;

const questions = only ? VERB_QUESTIONS.filter((q) => only.includes(q.id)) : VERB_QUESTIONS;
const out = {};
for (const q of questions) {
  const forms = { js: q.js, ...(q.aq ? { aq: q.aq } : {}) };
  const samples = {};
  const answers = {};
  for (let i = -warmup; i < reps; i++) {
    for (const [form, code] of Object.entries(forms)) {
      const t = performance.now();
      const r = await box.run(code);
      const ms = performance.now() - t;
      if (!r.ok) throw new Error(`run failed: ${code}: ${JSON.stringify(r.error)}`);
      if (i >= 0) (samples[form] ??= []).push(ms);
      answers[form] ??= verbAnswerOfRun(r);
      if (baseBox) {
        const tb = performance.now();
        const rb = await baseBox.run(code);
        if (i >= 0) (samples[`base.${form}`] ??= []).push(performance.now() - tb);
        answers[`base.${form}`] ??= verbAnswerOfRun(rb);
      }
    }
    if (pandas) {
      const a = await pandas.ask(q.py);
      if (!a.ok) throw new Error(`pandas failed: ${q.py}: ${a.value}`);
      if (i >= 0) (samples.pandas ??= []).push(a.ms);
      answers.pandas ??= verbAnswerOfPandas(a, q.pyIndex ?? true);
    }
  }
  const stats = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarize(v)]));
  const ratios = pandas
    ? Object.fromEntries(
        Object.keys(forms).map((f) => [f, Math.round((stats[f].p50 / stats.pandas.p50) * 1000) / 1000]),
      )
    : null;
  const agree = pandas
    ? Object.fromEntries(
        Object.keys(answers)
          .filter((f) => f !== 'pandas')
          .map((f) => [f, sameAnswer(answers[f], answers.pandas)]),
      )
    : null;
  if (baseBox && ratios)
    for (const f of Object.keys(forms))
      ratios[`base.${f}`] = Math.round((stats[`base.${f}`].p50 / stats.pandas.p50) * 1000) / 1000;
  out[q.id] = { label: q.label, js: q.js, aq: q.aq ?? null, py: q.py, stats, ratios, answersAgree: agree };
  if (agree && Object.values(agree).some((x) => !x))
    log(`  answers differ for ${q.id}: ${JSON.stringify(answers).slice(0, 1500)}`);
  log(
    `verb ${q.id}: ${Object.entries(stats)
      .map(([k, s]) => `${k} ${s.p50.toFixed(2)}`)
      .join(', ')} ms p50; ratio ${JSON.stringify(ratios)}; agree ${JSON.stringify(agree)}`,
  );
}

await pandas?.close();
await box.close();
await baseBox?.close();
await shutdown();
await baseline?.shutdown();
emit({ questions: out });
