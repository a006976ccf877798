// Engines (issue 17): the bench questions on the QuickJS WASM engine vs isolated-vm, in one run.
//   - per data set (the embedded synthetic sample, and the full-size file when it exists) and per
//     engine: one session, each question of MIXED_QUESTIONS once cold (columns load) and `reps`
//     times warm; p50 per question, the QuickJS/isolated-vm ratio, and whether the answers agree;
//   - a fresh session on the synthetic sample: one-shot run() with a warm spare (runs spaced by
//     `gapMs`, long enough for the spare to boot) and without one (a distinct timeoutMs per run,
//     so every run boots a new isolate);
//   - the column hand-over on the full-size file: a fresh session's first read of one float64, one
//     dictionary and one utf8 column through the prelude, per engine; and the raw QuickJS copy of
//     each column's typed arrays into the WASM heap (no prelude), in MB/s.
// Standard limits throughout; a question that fails (TIMEOUT, MEMORY_LIMIT) is recorded as such.
//   BENCH_ARGS='{"reps":5,"fullReps":2,"freshRuns":15}' node bench/measures/engines.mjs
//   SBIRTOOLS_BENCH_CSV=<file> measures another full-size file.
import { existsSync } from 'node:fs';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { sleep, summarize } from '../lib/stats.mjs';
import { MIXED_QUESTIONS, answerOfRun, sameAnswer } from '../questions.mjs';

const {
  reps = 5,
  fullReps = 2,
  freshRuns = 15,
  noSpareRuns = 8,
  gapMs = 1500,
  full = true,
  sections = ['synthetic', 'fresh', 'full', 'columns', 'handover'],
} = measureArgs();
const { createSandbox, run, shutdown } = await import(dist('src/index.js'));
const ENGINES = ['isolated-vm', 'quickjs'];

/** One session per engine over `data`; every question cold once, then `n` warm runs. */
async function questions(label, data, n) {
  const out = {};
  for (const engine of ENGINES) {
    const t = performance.now();
    const box = await createSandbox({ engine, ...data });
    const openMs = performance.now() - t;
    const perQ = {};
    for (const q of MIXED_QUESTIONS) {
      const c = performance.now();
      const first = await box.run(q.js);
      const coldMs = performance.now() - c;
      const warm = [];
      let r = first;
      for (let i = 0; i < n && first.ok; i++) {
        const w = performance.now();
        r = await box.run(q.js);
        warm.push(performance.now() - w);
      }
      perQ[q.id] = {
        ok: r.ok,
        error: r.error?.type,
        coldMs,
        warm: warm.length ? summarize(warm) : undefined,
        answer: answerOfRun(r),
        engine: r.engine,
      };
      log(
        `${label} ${engine} ${q.id}: ${r.ok ? `cold ${coldMs.toFixed(0)} ms, warm p50 ${perQ[q.id].warm?.p50.toFixed(1)} ms` : r.error?.type}`,
      );
    }
    await box.close();
    out[engine] = { openMs, questions: perQ };
  }
  const compare = {};
  for (const q of MIXED_QUESTIONS) {
    const v = out['isolated-vm'].questions[q.id];
    const w = out.quickjs.questions[q.id];
    compare[q.id] = {
      sameAnswer: v.ok && w.ok && sameAnswer(v.answer, w.answer),
      quickjsOk: w.ok,
      coldRatio: w.ok && v.ok ? w.coldMs / v.coldMs : null,
      warmRatio: w.warm && v.warm ? w.warm.p50 / v.warm.p50 : null,
    };
  }
  for (const e of ENGINES) for (const q of Object.values(out[e].questions)) delete q.answer;
  return { ...out, compare };
}

/** One-shot runs on the synthetic sample: warm spare, then no spare. */
async function fresh(engine) {
  const code = 'award_data.numRows()';
  const oneShot = async (extra = {}) => {
    const t = performance.now();
    const r = await run(code, { engine, ...extra });
    if (!r.ok) throw new Error(`${engine}: ${JSON.stringify(r.error)}`);
    return performance.now() - t;
  };
  await oneShot();
  await sleep(1000);
  const warm = [];
  for (let i = 0; i < freshRuns; i++) {
    warm.push(await oneShot());
    await sleep(gapMs);
  }
  const cold = [];
  for (let i = 0; i < noSpareRuns; i++) {
    cold.push(await oneShot({ timeoutMs: 20_000 + i }));
    await sleep(gapMs);
  }
  const res = { warmSpare: summarize(warm), noSpare: summarize(cold) };
  log(
    `fresh ${engine}: warm spare p50 ${res.warmSpare.p50.toFixed(1)} ms, no spare p50 ${res.noSpare.p50.toFixed(1)} ms`,
  );
  return res;
}

/** A fresh session's first read of each column (the hand-over), then a second read (already in the isolate). */
async function columns(data) {
  const cols = { float64: 'Award Amount', dict: 'Agency', utf8: 'Award Title' };
  const out = {};
  for (const engine of ENGINES) {
    out[engine] = {};
    for (const [kind, name] of Object.entries(cols)) {
      const box = await createSandbox({ engine, ...data });
      const code = `award_data.column(${JSON.stringify(name)}).data().length ?? award_data.numRows()`;
      const t = performance.now();
      const first = await box.run(code);
      const firstMs = performance.now() - t;
      const u = performance.now();
      await box.run(code);
      const againMs = performance.now() - u;
      await box.close();
      out[engine][kind] = {
        column: name,
        ok: first.ok,
        firstMs,
        againMs,
        handOverMs: firstMs - againMs,
        heapUsedMb: first.stats.heapUsedMb,
      };
      log(`columns ${engine} ${kind} (${name}): first read ${firstMs.toFixed(0)} ms, again ${againMs.toFixed(0)} ms`);
    }
  }
  return out;
}

/**
 * The raw hand-over on QuickJS, in this process: each column's typed arrays copied into a session's
 * WASM heap as ArrayBuffers (quickjsColumns.ts), median of `n`, and the bytes moved.
 */
async function handover(data, n = 5) {
  const { openDataset, resolveDataSource } = await import(dist('src/data/index.js'));
  const { loadQuickJs } = await import(dist('src/runtime/engines/quickjs/quickjsModule.js'));
  const { columnToGuest } = await import(dist('src/runtime/engines/quickjs/quickjsColumns.js'));
  const ds = await openDataset(resolveDataSource({ ...data, env: {} }));
  const { module } = await (await loadQuickJs()).instantiate(1024 * 1048576);
  const out = {};
  for (const name of ['Award Amount', 'Agency', 'Award Title', 'Abstract']) {
    const col = ds.loadColumn(name);
    const bytes = Object.values(col).reduce((sum, v) => sum + (ArrayBuffer.isView(v) ? v.byteLength : 0), 0);
    const times = [];
    for (let i = 0; i < n; i++) {
      const rt = module.newRuntime();
      const vm = rt.newContext();
      const t = performance.now();
      const h = columnToGuest(vm, col);
      times.push(performance.now() - t);
      h.dispose();
      vm.dispose();
      rt.dispose();
    }
    const ms = summarize(times).p50;
    out[name] = { kind: col.kind, mb: bytes / 1048576, ms, mbPerS: bytes / 1048576 / (ms / 1000) };
    log(`hand-over quickjs ${name} (${col.kind}): ${(bytes / 1048576).toFixed(1)} MB in ${ms.toFixed(1)} ms`);
  }
  ds.close();
  return out;
}

const result = { fresh: {} };
const fullData = { dataPath: CSV, cacheDir: CACHE_DIR };
if (sections.includes('synthetic')) result.synthetic = await questions('synthetic', {}, reps);
if (sections.includes('fresh')) for (const engine of ENGINES) result.fresh[engine] = await fresh(engine);
if (full && existsSync(CSV)) {
  if (sections.includes('full')) result.full = { csv: CSV, ...(await questions('full', fullData, fullReps)) };
  if (sections.includes('columns')) result.columns = await columns(fullData);
  if (sections.includes('handover')) result.handover = await handover(fullData);
} else log(`full-size file ${CSV} not found: skipped (SBIRTOOLS_BENCH_CSV=<file>)`);
await shutdown();
emit(result);
