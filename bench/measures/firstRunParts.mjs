// What a fresh session's first runs cost, run by run (issue 25, "A fresh session's first run"):
// each sample is a fresh Node process with a fresh sandbox (the holder process as a user gets it);
// the session is opened with `award_data.numRows()`, then `programs` run in order, each timed
// (wall ms in this process, and the isolate's CPU ms from the run's stats).
//   mode "first": the first session of the process (what the styles bench's first run measures);
//   mode "spare": a first sandbox opened, run and closed, `spareWaitMs` idle (the holder boots its
//     spare), then a second sandbox, which takes the spare: the MCP server's next session.
//   mode "warmUpCost": in this process, `samples` fresh isolates (the full file's session shape,
//     no spares) each run the spare's warm-up by hand: its wall and isolate CPU ms.
// `variants` are run interleaved, sample by sample: each sets environment variables for its
// process (e.g. SBIRTOOLS_WARM_SPARES, or SBIRTOOLS_DIST for another build), and may name a
// prelude code cache file (`codeCache`) copied into the cache folder, under its own file name,
// before its process starts (the first isolate of a process reads it).
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv BENCH_ARGS='{"samples":5,"mode":"spare",
//     "variants":[{"name":"off","env":{"SBIRTOOLS_WARM_SPARES":"0"}},{"name":"on","env":{}}]}' \
//     node --no-node-snapshot bench/measures/firstRunParts.mjs
import { spawn } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { sleep, summarize } from '../lib/stats.mjs';

const DEFAULT_PROGRAMS = [
  "award_data['Award Amount'].sum()",
  "award_data['Award Amount'].sum()",
  'award_data.Agency.value_counts().head(5)',
  'award_data.Agency.value_counts().head(5)',
];

/** Child: one process, one (or, for "spare", a second) sandbox; prints the runs' figures. */
async function child({ mode, programs, cacheDir, spareWaitMs, pauseMs }) {
  const { createSandbox, shutdown } = await import(dist('src/index.js'));
  try {
    if (mode === 'spare') {
      const first = await createSandbox({ dataPath: CSV, cacheDir });
      await first.run('award_data.numRows()');
      await first.close();
      await sleep(spareWaitMs);
    }
    const box = await createSandbox({ dataPath: CSV, cacheDir });
    const t0 = performance.now();
    const open = await box.run('award_data.numRows()');
    const openMs = performance.now() - t0;
    if (!open.ok) throw new Error(JSON.stringify(open.error));
    if (pauseMs) await sleep(pauseMs);
    const runs = [];
    for (const code of programs) {
      const t = performance.now();
      const r = await box.run(code);
      const ms = performance.now() - t;
      if (!r.ok) throw new Error(`${code}: ${JSON.stringify(r.error)}`);
      runs.push({ ms, cpuMs: r.stats.cpuMs, value: JSON.stringify(r.value).slice(0, 200) });
    }
    await box.close();
    process.stdout.write(`${JSON.stringify({ openMs, runs })}\n`);
  } finally {
    await shutdown();
  }
}

function spawnChild(spec, env) {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ['--no-node-snapshot', fileURLToPath(import.meta.url)], {
      env: { ...process.env, ...env, BENCH_FIRST_RUN_PARTS_CHILD: JSON.stringify(spec) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (err = (err + d).slice(-2000)));
    c.on('exit', (code) => {
      const last = out.trim().split('\n').pop();
      if (code === 0 && last) resolve(JSON.parse(last));
      else reject(new Error(`child failed (${code}): ${err}`));
    });
  });
}

/** The warm-up's own cost, on isolates of this process (SessionHost in-process, no spares). */
async function warmUpCost(samples, cacheDir) {
  process.env.SBIRTOOLS_NO_SPARES = '1';
  const { SessionHost } = await import(dist('src/runtime/holder/sessionHost.js'));
  const { PRESETS } = await import(dist('schema/limits.js'));
  const host = new SessionHost();
  const spec = { limits: { ...PRESETS.standard }, data: { kind: 'csv', path: CSV, cacheDir }, tables: [] };
  const wall = [];
  const cpu = [];
  try {
    for (let i = 0; i < samples; i++) {
      await host.open(`w${i}`, spec);
      const session = host.sessions.get(`w${i}`).session;
      const c0 = session.isolate.cpuTime;
      const t = performance.now();
      if (!(await session.warmUp(10_000))) throw new Error('the warm-up was refused');
      wall.push(performance.now() - t);
      cpu.push(Number(session.isolate.cpuTime - c0) / 1e6);
      host.close(`w${i}`);
      log(`warm-up #${i + 1}: ${wall.at(-1).toFixed(1)} ms wall, ${cpu.at(-1).toFixed(1)} ms isolate CPU`);
    }
  } finally {
    host.closeAll();
  }
  return { mode: 'warmUpCost', wall: summarize(wall), cpu: summarize(cpu) };
}

if (process.env.BENCH_FIRST_RUN_PARTS_CHILD) {
  await child(JSON.parse(process.env.BENCH_FIRST_RUN_PARTS_CHILD));
} else if (measureArgs().mode === 'warmUpCost') {
  const { samples = 7, cacheDir = CACHE_DIR } = measureArgs();
  emit(await warmUpCost(samples, cacheDir));
} else {
  const {
    samples = 5,
    mode = 'first',
    programs = DEFAULT_PROGRAMS,
    cacheDir = CACHE_DIR,
    spareWaitMs = 1500,
    pauseMs = 0,
    variants = [{ name: 'this build', env: {} }],
  } = measureArgs();
  const spec = { mode, programs, cacheDir, spareWaitMs, pauseMs };
  const got = Object.fromEntries(variants.map((v) => [v.name, []]));
  for (let i = 0; i < samples; i++) {
    for (const v of variants) {
      if (v.codeCache) copyFileSync(v.codeCache, join(cacheDir, basename(v.codeCache)));
      const r = await spawnChild(spec, v.env);
      got[v.name].push(r);
      log(
        `${v.name} #${i + 1}: open ${r.openMs.toFixed(1)} ms; ${r.runs.map((x) => `${x.ms.toFixed(1)}/${x.cpuMs}`).join(', ')} (wall/cpu ms)`,
      );
    }
  }
  const out = { mode, programs, samples, variants: {} };
  for (const v of variants) {
    const rs = got[v.name];
    out.variants[v.name] = {
      open: summarize(rs.map((r) => r.openMs)),
      runs: programs.map((code, k) => ({
        code,
        wall: summarize(rs.map((r) => r.runs[k].ms)),
        cpu: summarize(rs.map((r) => r.runs[k].cpuMs)),
        values: [...new Set(rs.map((r) => r.runs[k].value))],
      })),
    };
  }
  emit(out);
}
