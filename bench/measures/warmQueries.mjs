// 2c + the process boundary: warm session latency, round trip as the caller sees it.
// One sandbox in a holder process (the default), one in-process (`isolation: 'inline'`), and a
// persistent pandas worker with the frame loaded; every repetition asks all of them in turn, so
// machine noise hits every side alike. Each question runs as the prelude-style JS an LLM writes
// and, where it differs, as plain Arquero verbs. Needs `node --no-node-snapshot` (inline).
//   BENCH_ARGS='{"reps":40,"trivialReps":200,"python":"/usr/bin/python3"}' node --no-node-snapshot bench/measures/warmQueries.mjs
import { answerOfPandas, answerOfRun, sameAnswer, WARM_QUESTIONS } from '../questions.mjs';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { PandasWorker } from '../lib/pandasWorker.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';

const { reps = 40, trivialReps = 200, warmup = 5, trivialWarmup = 50, python } = measureArgs();
const { createSandbox, shutdown } = await import(dist('src/index.js'));

const boxes = {
  process: await createSandbox({ dataPath: CSV, cacheDir: CACHE_DIR }),
  inline: await createSandbox({ dataPath: CSV, cacheDir: CACHE_DIR, isolation: 'inline' }),
};
const pandas = python ? await PandasWorker.start(python, CSV) : undefined;

async function timedRun(box, code) {
  const t = performance.now();
  const r = await box.run(code);
  const ms = performance.now() - t;
  if (!r.ok) throw new Error(`run failed: ${code}: ${JSON.stringify(r.error)}`);
  return { ms, r };
}

const out = {};
for (const q of WARM_QUESTIONS) {
  const variants = { js: q.js, ...(q.aq ? { aq: q.aq } : {}), ...(q.fast ? { fast: q.fast } : {}) };
  const samples = {};
  const answers = {};
  const n = q.id === 'trivial' ? trivialReps : reps;
  // the host's own code (policy check, result validation) needs many calls before it is optimized
  for (let i = -(q.id === 'trivial' ? trivialWarmup : warmup); i < n; i++) {
    for (const [mode, box] of Object.entries(boxes)) {
      for (const [variant, code] of Object.entries(variants)) {
        const { ms, r } = await timedRun(box, code);
        if (i >= 0) (samples[`${mode}.${variant}`] ??= []).push(ms);
        answers[`${mode}.${variant}`] ??= answerOfRun(r);
      }
    }
    if (pandas) {
      const a = await pandas.ask(q.py);
      if (!a.ok) throw new Error(`pandas failed: ${q.py}: ${a.value}`);
      if (i >= 0) {
        (samples.pandas ??= []).push(a.ms);
        (samples.pandasCompute ??= []).push(a.computeMs);
      }
      answers.pandas ??= answerOfPandas(a);
    }
  }
  const stats = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarize(v)]));
  const agree =
    answers.pandas === undefined ? null : Object.entries(answers).every(([, a]) => sameAnswer(a, answers.pandas));
  out[q.id] = {
    label: q.label,
    js: q.js,
    aq: q.aq ?? null,
    fast: q.fast ?? null,
    py: q.py,
    stats,
    answersAgree: agree,
  };
  log(
    `warm ${q.id}: ${Object.entries(stats)
      .map(([k, s]) => `${k} ${s.p50.toFixed(2)}`)
      .join(', ')} ms p50; agree=${agree}`,
  );
}

const pandasMem = pandas ? await pandas.mem() : null;
await pandas?.close();
for (const box of Object.values(boxes)) await box.close();
await shutdown();
emit({ questions: out, pandasWorker: pandas ? { ...pandas.ready, ...pandasMem } : null });
