// The code models write (issue 25, item 1; bench/model-styles.mjs): every question in four styles
// against pandas, on the full file.
// - warm: one sandbox session per question and one persistent pandas worker (frame loaded), each
//   repetition asks every style and pandas in turn so machine noise hits all alike; p50 of `reps`
//   after `warmup`.
// - first run: each (question, style) in a fresh Node process with a fresh sandbox: the session is
//   opened with `award_data.numRows()` (untimed), then the question is the first code to touch its
//   columns (what an agent pays on its first call about them). Compared with pandas' warm p50.
//   With `thinkMs` (e.g. 1500) the first run is an agent's instead: the session opened, then
//   `thinkMs` of idle time (the model thinking), then the question; no `numRows()` before it (a
//   run ends the window in which the holder warms the session's isolate: docs/architecture.md
//   "Spare isolates and the warm-up"). The time is the question's run alone, as without it.
// Every answer is checked against pandas. Ratios are sbirtools / pandas (below 1: faster).
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv BENCH_ARGS='{"reps":5,"python":"/usr/bin/python3"}' \
//     node --no-node-snapshot bench/measures/modelStyles.mjs
// BENCH_ARGS also takes `only` (question ids), `styles`, `first: false` (warm only), `firstOnly`, `thinkMs`.
import { jsonChild } from '../lib/jsonChild.mjs';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MODEL_STYLE_QUESTIONS, STYLES, answerOfPandas, answerOfRun } from '../model-styles.mjs';
import { sameAnswer } from '../questions.mjs';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { PandasWorker } from '../lib/pandasWorker.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';

const r3 = (x) => Math.round(x * 1000) / 1000;
const geo = (xs) => (xs.length ? r3(Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length)) : null);

/** Child mode: one fresh sandbox, one question; prints { ms, answer }. */
async function firstRunChild(code, cacheDir, thinkMs) {
  const { createSandbox, shutdown } = await import(dist('src/index.js'));
  const box = await createSandbox({ dataPath: CSV, cacheDir });
  try {
    if (thinkMs > 0) await new Promise((r) => setTimeout(r, thinkMs));
    else {
      const open = await box.run('award_data.numRows()');
      if (!open.ok) throw new Error(JSON.stringify(open.error));
    }
    const t = performance.now();
    const r = await box.run(code);
    const ms = performance.now() - t;
    process.stdout.write(`${JSON.stringify({ ms, ok: r.ok, answer: answerOfRun(r) })}\n`);
  } finally {
    await box.close();
    await shutdown();
  }
}

function firstRun(code, cacheDir, thinkMs) {
  return jsonChild(fileURLToPath(import.meta.url), {
    BENCH_MODEL_STYLES_CHILD: JSON.stringify({ code, cacheDir, thinkMs }),
  });
}

/**
 * @param {{ reps?: number, warmup?: number, python?: string | null, cacheDir?: string, only?: string[], styles?: string[], first?: boolean, firstOnly?: boolean, thinkMs?: number }} args
 */
export async function measureModelStyles(args = {}) {
  const { reps = 5, warmup = 2, cacheDir = CACHE_DIR, only, first = true, firstOnly = false, thinkMs = 0 } = args;
  const styles = args.styles ?? STYLES;
  const python = args.python === undefined ? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : null) : args.python;
  const questions = only ? MODEL_STYLE_QUESTIONS.filter((q) => only.includes(q.id)) : MODEL_STYLE_QUESTIONS;
  const { createSandbox, shutdown } = await import(dist('src/index.js'));
  const pandas = python ? await PandasWorker.start(python, CSV) : undefined;
  const out = {};
  let box = null;
  try {
    for (const q of questions) {
      // a session per question (warm within it): one question's caches never crowd another's
      await box?.close();
      box = firstOnly ? null : await createSandbox({ dataPath: CSV, cacheDir });
      await box?.run('award_data.numRows()');
      const row = { label: q.label, styles: {} };
      const samples = { pandas: [] };
      let pandasAnswer;
      for (let i = -warmup; i < (firstOnly ? 1 : reps); i++) {
        for (const s of firstOnly ? [] : styles) {
          const t = performance.now();
          const r = await box.run(q[s]);
          const ms = performance.now() - t;
          if (!r.ok) throw new Error(`run failed: ${q.id} (${s}): ${JSON.stringify(r.error)}`);
          row.styles[s] ??= { answer: answerOfRun(r) };
          if (i >= 0) (samples[s] ??= []).push(ms);
        }
        if (pandas) {
          const a = await pandas.ask(q.py);
          if (!a.ok) throw new Error(`pandas failed: ${q.id}: ${a.value}`);
          pandasAnswer ??= answerOfPandas(a);
          if (i >= 0) samples.pandas.push(a.ms);
        }
      }
      const p = pandas ? summarize(samples.pandas) : null;
      row.pandas = p;
      for (const s of styles) {
        const e = (row.styles[s] ??= {});
        if (samples[s]) {
          e.warm = summarize(samples[s]);
          e.ratio = p ? r3(e.warm.p50 / p.p50) : null;
        }
        if (first) {
          const f = await firstRun(q[s], cacheDir, thinkMs);
          if (!f.ok) throw new Error(`first run failed: ${q.id} (${s}): ${JSON.stringify(f.answer)}`);
          e.firstMs = r3(f.ms);
          e.firstRatio = p ? r3(f.ms / p.p50) : null;
          e.answer ??= f.answer;
        }
        e.agree = pandas ? sameAnswer(e.answer, pandasAnswer) : null;
        if (e.agree === false)
          log(`  DISAGREE ${q.id} (${s}): ${JSON.stringify(e.answer)} vs pandas ${JSON.stringify(pandasAnswer)}`);
        delete e.answer;
      }
      out[q.id] = row;
      log(
        `styles ${q.id}: pandas ${p?.p50.toFixed(1)} ms; ${styles
          .map((s) => {
            const e = row.styles[s];
            return `${s} ${e.warm ? `${e.warm.p50.toFixed(1)} ms (${e.ratio}x)` : ''}${first ? ` first ${e.firstMs?.toFixed(0)} ms (${e.firstRatio}x)` : ''}${e.agree === false ? ' DISAGREES' : ''}`;
          })
          .join('; ')}`,
      );
    }
  } finally {
    await pandas?.close();
    await box?.close();
    await shutdown();
  }
  const summary = {};
  const all = { warm: [], first: [] };
  for (const s of styles) {
    const rows = Object.entries(out).map(([id, q]) => [id, q.styles[s]]);
    const warm = rows.filter(([, e]) => e.ratio > 0);
    const firsts = rows.filter(([, e]) => e.firstRatio > 0);
    const worst = (xs, k) => xs.reduce((w, [id, e]) => (!w || e[k] > w.ratio ? { id, ratio: e[k] } : w), null);
    all.warm.push(...warm.map(([, e]) => e.ratio));
    all.first.push(...firsts.map(([, e]) => e.firstRatio));
    summary[s] = {
      warmGeomean: geo(warm.map(([, e]) => e.ratio)),
      warmWorst: worst(warm, 'ratio'),
      warmAboveHalf: warm.filter(([, e]) => e.ratio > 0.5).length,
      firstGeomean: geo(firsts.map(([, e]) => e.firstRatio)),
      firstWorst: worst(firsts, 'firstRatio'),
      firstSlowerThanPandas: firsts.filter(([, e]) => e.firstRatio > 1).length,
      agree: rows.every(([, e]) => e.agree !== false),
    };
    log(
      `styles ${s}: warm geomean ${summary[s].warmGeomean}x (worst ${summary[s].warmWorst?.id} ${summary[s].warmWorst?.ratio}x, ${summary[s].warmAboveHalf} above 0.5x); first geomean ${summary[s].firstGeomean}x (worst ${summary[s].firstWorst?.id} ${summary[s].firstWorst?.ratio}x, ${summary[s].firstSlowerThanPandas} slower than pandas); answers agree: ${summary[s].agree}`,
    );
  }
  summary.all = {
    questions: Object.keys(out).length,
    programs: all.warm.length || all.first.length,
    warmGeomean: geo(all.warm),
    warmAboveHalf: all.warm.filter((x) => x > 0.5).length,
    firstGeomean: geo(all.first),
    firstSlowerThanPandas: all.first.filter((x) => x > 1).length,
  };
  return { questions: out, summary, reps, warmup };
}

if (process.env.BENCH_MODEL_STYLES_CHILD) {
  const { code, cacheDir, thinkMs } = JSON.parse(process.env.BENCH_MODEL_STYLES_CHILD);
  await firstRunChild(code, cacheDir ?? CACHE_DIR, thinkMs ?? 0);
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  emit(await measureModelStyles(measureArgs()));
}
