// A fresh session's first run split into its parts (issue 25 item 1; docs/benchmarks.md "A fresh
// session's first run, split (session 14)"), and two builds against each other. Each sample is a fresh Node
// process per (program, build), the builds alternating, as the styles bench's first run
// (`firstOnly`) makes it: a session opened with `award_data.numRows()` (untimed), then the program.
//   mode "process" (default): through createSandbox (the holder process, as a user gets it): the
//     caller's wall ms and the isolate's CPU ms of the run, and the open's wall ms (createSandbox
//     and `award_data.numRows()`);
//   mode "split": the holder's SessionHost in this process (no holder, no IPC): the code check
//     (checkAndPrepare, cold) timed alone, then the run (its check is then memoised): wall, isolate
//     CPU, and the host ms spent in the table provider's reads (column, window, text page) during it.
// A build is a dist directory, or { dist, env } (environment variables for its processes, e.g.
// SBIRTOOLS_WARM_OPEN=0). `thinkMs` (mode "process"): an agent's first run instead, the session
// opened, `thinkMs` idle (the model thinking), then the program, with no `numRows()` first (a run
// ends the window in which the holder warms the session's isolate); the open's ms is then
// createSandbox alone; in mode "split" the same (the SessionHost opened, `thinkMs` idle, no
// `numRows()`), so the holder's and the isolate's parts of the agent's first run are split too.
// `spareWaitMs` (mode "process"): a fresh session in a warm holder instead (what
// an MCP server's or a pool's next conversation pays): a first sandbox opened, `award_data.numRows()`
// run in it and closed, `spareWaitMs` idle (the holder boots its spare, and warms it when
// SBIRTOOLS_WARM_SPARES is on), then a second sandbox, which takes the spare, opened with
// `numRows()` (untimed) and the program timed as above. Every answer must agree between builds and
// samples. Prints per program and build p50 and min, and the geo-mean ratio (second build / first)
// of the wall p50s and mins.
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv BENCH_ARGS='{"samples":5,"mode":"process",
//     "builds":{"base":"/work/wt/base/dist","branch":"dist"},"only":["totalAmount"],"styles":["series"]}' \
//     node --no-node-snapshot bench/measures/firstRunSplit.mjs
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { jsonChild } from '../lib/jsonChild.mjs';
import { CACHE_DIR, CSV, DIST } from '../lib/paths.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';
import { MODEL_STYLE_QUESTIONS, STYLES, answerOfRun } from '../model-styles.mjs';

const at = (dist, path) => pathToFileURL(resolve(dist, path)).href;

/** Child, mode "process": the first run through the holder process. */
async function processChild({ code, cacheDir, dist, thinkMs = 0, spareWaitMs = 0 }) {
  const { createSandbox, shutdown } = await import(at(dist, 'src/index.js'));
  if (spareWaitMs > 0) {
    const first = await createSandbox({ dataPath: CSV, cacheDir });
    const r = await first.run('award_data.numRows()');
    await first.close();
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    await new Promise((r) => setTimeout(r, spareWaitMs));
  }
  const t0 = performance.now();
  const box = await createSandbox({ dataPath: CSV, cacheDir });
  try {
    if (!(thinkMs > 0)) {
      const open = await box.run('award_data.numRows()');
      if (!open.ok) throw new Error(JSON.stringify(open.error));
    }
    const openMs = performance.now() - t0;
    if (thinkMs > 0) await new Promise((r) => setTimeout(r, thinkMs));
    const t = performance.now();
    const r = await box.run(code);
    const ms = performance.now() - t;
    if (!r.ok) throw new Error(`${code}: ${JSON.stringify(r.error)}`);
    return { ms, cpu: r.stats?.cpuMs, openMs, answer: JSON.stringify(answerOfRun(r)) };
  } finally {
    await box.close();
    await shutdown();
  }
}

/** Child, mode "split": the holder's SessionHost in this process, the run's parts timed. */
async function splitChild({ code, cacheDir, dist, warmUp, checkFirst, thinkMs = 0 }) {
  const { SessionHost } = await import(at(dist, 'src/runtime/holder/sessionHost.js'));
  const { PRESETS } = await import(at(dist, 'schema/limits.js'));
  const host = new SessionHost();
  const spec = { limits: { ...PRESETS.standard }, data: { kind: 'csv', path: CSV, cacheDir }, tables: [] };
  try {
    await host.open('s', spec);
    // probes: the session's isolate warmed before its first run (as a spare is), and the code check
    // run first over other programs (both in the open, untimed)
    if (warmUp && !(await host.sessions.get('s').session.warmUp(10_000))) throw new Error('warm-up refused');
    for (const other of checkFirst ?? []) host.checker.check(other, 'standard', 60_000, 512, 'w');
    const run = (source) => host.run('s', { source, preset: 'standard', timeoutMs: 60_000 });
    if (thinkMs > 0) await new Promise((r) => setTimeout(r, thinkMs));
    else {
      const open = await run('award_data.numRows()');
      if (open.status !== 'ok') throw new Error(open.message);
    }
    // the provider's reads, timed (host.tables keeps the provider the session's bridge calls)
    const { provider } = await host.tables.award(spec.data);
    let readMs = 0;
    for (const k of Object.keys(provider)) {
      if (typeof provider[k] !== 'function') continue;
      const f = provider[k];
      provider[k] = (...a) => {
        const t = performance.now();
        try {
          return f(...a);
        } finally {
          readMs += performance.now() - t;
        }
      };
    }
    let t = performance.now();
    const checked = host.checker.check(code, 'standard', 60_000, spec.limits.memoryLimitMb, 's');
    const checkMs = performance.now() - t;
    if (!checked.ok) throw new Error(JSON.stringify(checked.error));
    t = performance.now();
    const r = await run(code);
    const ms = performance.now() - t;
    if (r.status !== 'ok') throw new Error(`${code}: ${r.message}`);
    return { ms, checkMs, readMs, cpu: r.stats.cpuMs, isolateWall: r.stats.wallMs, answer: r.outcomeJson };
  } finally {
    host.closeAll();
  }
}

if (process.env.BENCH_FIRST_RUN_SPLIT_CHILD) {
  const spec = JSON.parse(process.env.BENCH_FIRST_RUN_SPLIT_CHILD);
  const out = await (spec.mode === 'split' ? splitChild(spec) : processChild(spec));
  // a shared answer would be compared as text: keep it short
  out.answer = out.answer?.slice(0, 300);
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
} else {
  const {
    samples = 5,
    mode = 'process',
    builds = { 'this build': DIST },
    only,
    styles = STYLES,
    cacheDir = CACHE_DIR,
    thinkMs = 0,
    spareWaitMs = 0,
  } = measureArgs();
  const questions = MODEL_STYLE_QUESTIONS.filter((q) => !only || only.includes(q.id));
  const names = Object.keys(builds);
  const out = { mode, samples, thinkMs, spareWaitMs, programs: {} };
  for (const q of questions) {
    for (const style of styles) {
      const got = Object.fromEntries(names.map((n) => [n, []]));
      for (let i = 0; i < samples; i++) {
        for (const n of i % 2 ? [...names].reverse() : names) {
          const build = typeof builds[n] === 'string' ? { dist: builds[n] } : builds[n];
          const { env, ...rest } = build;
          const r = await jsonChild(fileURLToPath(import.meta.url), {
            ...env,
            BENCH_FIRST_RUN_SPLIT_CHILD: JSON.stringify({
              mode,
              code: q[style],
              cacheDir,
              thinkMs,
              spareWaitMs,
              ...rest,
            }),
          });
          got[n].push(r);
        }
      }
      const answers = new Set(names.flatMap((n) => got[n].map((r) => r.answer)));
      const row = { agree: answers.size === 1 };
      for (const n of names) {
        row[n] = {};
        for (const k of Object.keys(got[n][0]).filter((x) => x !== 'answer'))
          row[n][k] = summarize(got[n].map((r) => r[k]));
      }
      out.programs[`${q.id} ${style}`] = row;
      log(
        `${q.id} ${style}: ${names
          .map(
            (n) =>
              `${n} ${Object.entries(row[n])
                .map(([k, s]) => `${k} ${s.p50.toFixed(1)}/${s.min.toFixed(1)}`)
                .join(' ')}`,
          )
          .join(' | ')}${row.agree ? '' : ' ANSWERS DIFFER'}`,
      );
    }
  }
  if (names.length === 2) {
    const [a, b] = names;
    const rows = Object.values(out.programs);
    const geo = (k) =>
      Math.exp(rows.reduce((s, r) => s + Math.log(r[b].ms[k] / r[a].ms[k]), 0) / rows.length).toFixed(3);
    out.ratio = { of: `${b} / ${a}`, wallP50: Number(geo('p50')), wallMin: Number(geo('min')) };
    log(`geo-mean wall ${b} / ${a}: p50 ${out.ratio.wallP50}, min ${out.ratio.wallMin}`);
  }
  out.allAgree = Object.values(out.programs).every((r) => r.agree);
  emit(out);
}
