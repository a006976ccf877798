// Before/after of the hand-written sorts and Math.min/max fast paths (prelude/fast/handSort.ts) on
// the model-style programs (bench/model-styles.mjs) that contain one, in ONE process: per question a
// warm session runs each such program as written (a comment naming `__sbirtools_sort` turns only
// this rewrite off; row loops stay rewritten) and rewritten, then pandas, in turn, `reps` times after
// `warmup`, so the machine's load hits all alike. Prints the p50 and the best ms of each, the ratios
// (of p50) to pandas and after/before of both; every answer is checked against the other way's and pandas'.
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv node --no-node-snapshot bench/hand-sort-ab.mjs [--reps 7] [--warmup 2] [--only id,id]
import { MODEL_STYLE_QUESTIONS, STYLES, answerOfPandas, answerOfRun } from './model-styles.mjs';
import { sameAnswer } from './questions.mjs';
import { CACHE_DIR, CSV, dist } from './lib/paths.mjs';
import { PandasWorker } from './lib/pandasWorker.mjs';
import { summarize } from './lib/stats.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i < 0 ? dflt : args[i + 1];
};
const reps = Number(opt('--reps', 7));
const warmup = Number(opt('--warmup', 2));
const only = opt('--only', null)?.split(',');
const { createSandbox, shutdown } = await import(dist('src/index.js'));
const { prepareCode } = await import(dist('src/runtime/prepare/transform.js'));
const asWritten = (code) => `${code}\n// __sbirtools_sort`;
const pandas = await PandasWorker.start('/usr/bin/python3', CSV);
const rows = [];
try {
  for (const q of MODEL_STYLE_QUESTIONS) {
    if (only && !only.includes(q.id)) continue;
    const styles = STYLES.filter((s) => q[s] && prepareCode(q[s]).code.includes('__sbirtools_sort'));
    if (styles.length === 0) continue;
    const box = await createSandbox({ dataPath: CSV, cacheDir: CACHE_DIR });
    try {
      await box.run('award_data.numRows()');
      const samples = { pandas: [] };
      const answers = {};
      for (let i = -warmup; i < reps; i++) {
        for (const s of styles)
          for (const [way, code] of [
            ['before', asWritten(q[s])],
            ['after', q[s]],
          ]) {
            const t = performance.now();
            const r = await box.run(code);
            const ms = performance.now() - t;
            if (!r.ok) throw new Error(`${q.id} ${s} ${way}: ${JSON.stringify(r.error)}`);
            answers[`${s} ${way}`] ??= answerOfRun(r);
            if (i >= 0) (samples[`${s} ${way}`] ??= []).push(ms);
          }
        const a = await pandas.ask(q.py);
        answers.pandas ??= answerOfPandas(a);
        if (i >= 0) samples.pandas.push(a.ms);
      }
      const p = summarize(samples.pandas).p50;
      for (const s of styles) {
        const b = summarize(samples[`${s} before`]);
        const a = summarize(samples[`${s} after`]);
        const [before, after] = [b.p50, a.p50];
        const agree =
          sameAnswer(answers[`${s} before`], answers.pandas) &&
          sameAnswer(answers[`${s} after`], answers[`${s} before`]);
        const row = {
          question: q.id,
          style: s,
          pandasMs: +p.toFixed(2),
          beforeMs: +before.toFixed(2),
          afterMs: +after.toFixed(2),
          beforeX: +(before / p).toFixed(3),
          afterX: +(after / p).toFixed(3),
          afterOverBefore: +(after / before).toFixed(3),
          bestBeforeMs: +b.min.toFixed(2),
          bestAfterMs: +a.min.toFixed(2),
          bestAfterOverBefore: +(a.min / b.min).toFixed(3),
          agree,
        };
        rows.push(row);
        console.log(JSON.stringify(row));
      }
    } finally {
      await box.close();
    }
  }
} finally {
  await pandas.close();
  await shutdown();
}
console.table(rows);
