// What a fresh session's first runs cost, run by run (issue 25, "A fresh session's first run"):
// each sample is a fresh Node process with a fresh sandbox (the holder process as a user gets it);
// the session is opened with `award_data.numRows()`, then `programs` run in order, each timed
// (wall ms in this process, and the isolate's CPU ms from the run's stats).
//   mode "first": the first session of the process (what the styles bench's first run measures);
//   mode "spare": a first sandbox opened, run and closed, `spareWaitMs` idle (the holder boots its
//     spare), then a second sandbox, which takes the spare: the MCP server's next session.
//   mode "inProcess": in this process, for each sample and each program, two fresh isolates of the
//     full file's session shape (no spares), one warmed by hand as a spare is (warmUp) and one not,
//     in alternating order; each runs `award_data.numRows()`, then the program: its isolate CPU ms.
//   mode "warmUpCost": in this process, `samples` fresh isolates (the full file's session shape,
//     no spares) each run the spare's warm-up by hand: its wall and isolate CPU ms.
//   mode "copyIn": a column the size of `Award Amount` (219,590 float64 values and validity bytes)
//     into a fresh isolate through a bridge callback, as bridge.fetchColumn returns it (a copy of
//     the host's arrays) and as an ExternalCopy transferred in (the host's buffers moved, not
//     copied; or copied once on the host and that copy moved in): the isolate's CPU ms and the wall
//     ms of one fetch, `samples` fresh isolates each.
// `variants` are run interleaved, sample by sample: each sets environment variables for its
// process (e.g. SBIRTOOLS_WARM_SPARES, or SBIRTOOLS_DIST for another build), and may name a
// prelude code cache file (`codeCache`) copied into the cache folder, under its own file name,
// before its process starts (the first isolate of a process reads it).
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv BENCH_ARGS='{"samples":5,"mode":"spare",
//     "variants":[{"name":"off","env":{"SBIRTOOLS_WARM_SPARES":"0"}},{"name":"on","env":{}}]}' \
//     node --no-node-snapshot bench/measures/firstRunParts.mjs
import { jsonChild } from '../lib/jsonChild.mjs';
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
      runs.push({
        ms,
        cpuMs: r.stats.cpuMs,
        value: String(JSON.stringify(r.value ?? r.table ?? r.valueText)).slice(0, 200),
      });
    }
    await box.close();
    process.stdout.write(`${JSON.stringify({ openMs, runs })}\n`);
  } finally {
    await shutdown();
  }
}

function spawnChild(spec, env) {
  return jsonChild(fileURLToPath(import.meta.url), { ...env, BENCH_FIRST_RUN_PARTS_CHILD: JSON.stringify(spec) });
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

/** One column into an isolate: copied as a callback's result vs an ExternalCopy transferred in. */
async function copyIn(samples) {
  const { loadEngine } = await import(dist('src/runtime/engines/isolated-vm/loadIsolatedVm.js'));
  const { ivm } = loadEngine();
  const n = 219_590;
  const column = () => {
    const values = new Float64Array(n);
    const valid = new Uint8Array(n);
    for (let i = 0; i < n; i++) ((values[i] = i * 1.5), (valid[i] = i % 100 ? 1 : 0));
    return { kind: 'float64', type: 'number', values, valid };
  };
  let col = column();
  const ways = {
    // what bridge.fetchColumn does today: the callback's result copied (serialized, then deserialized)
    copy: () => col,
    // the object serialized into an ExternalCopy, then that copy copied into the isolate
    externalCopy: () => new ivm.ExternalCopy(col).copyInto({ release: true, transferIn: true }),
    // one copy of each array on the host (the shared column stays the host's), those copies moved in
    sliceTransferIn: () => {
      const c = { ...col, values: col.values.slice(), valid: col.valid.slice() };
      return new ivm.ExternalCopy(c, { transferList: [c.values.buffer, c.valid.buffer] }).copyInto({
        release: true,
        transferIn: true,
      });
    },
    // the host's own buffers moved in (only for a column the host does not keep: takeColumn)
    transferIn: () =>
      new ivm.ExternalCopy(col, { transferList: [col.values.buffer, col.valid.buffer] }).copyInto({
        release: true,
        transferIn: true,
      }),
  };
  const out = {};
  for (let i = 0; i < samples; i++) {
    for (const [name, make] of Object.entries(ways)) {
      const isolate = new ivm.Isolate({ memoryLimit: 128 });
      const context = isolate.createContextSync();
      await context.global.set('fetch', new ivm.Callback(make));
      const script = isolate.compileScriptSync('(() => { const c = fetch(); return c.values.length + c.valid[1]; })()');
      // a first call compiles the script's path; the second, timed, is one column's fetch
      col = column();
      script.runSync(context);
      col = column();
      const c0 = isolate.cpuTime;
      const t = performance.now();
      const got = script.runSync(context);
      const wall = performance.now() - t;
      const cpu = Number(isolate.cpuTime - c0) / 1e6;
      if (got !== n + 1) throw new Error(`${name}: ${got}`);
      const heap = isolate.getHeapStatisticsSync();
      out[name] ??= { wall: [], cpu: [], external: heap.externally_allocated_size };
      out[name].wall.push(wall);
      out[name].cpu.push(cpu);
      isolate.dispose();
    }
  }
  for (const v of Object.values(out)) ((v.wall = summarize(v.wall)), (v.cpu = summarize(v.cpu)));
  return { mode: 'copyIn', ...out };
}

/** Warmed vs cold isolates in this process, the program's isolate CPU ms (mode "inProcess"). */
async function inProcess(samples, programs, cacheDir) {
  process.env.SBIRTOOLS_NO_SPARES = '1';
  const { SessionHost } = await import(dist('src/runtime/holder/sessionHost.js'));
  const { PRESETS } = await import(dist('schema/limits.js'));
  const host = new SessionHost();
  const spec = { limits: { ...PRESETS.standard }, data: { kind: 'csv', path: CSV, cacheDir }, tables: [] };
  const got = programs.map(() => ({ cold: [], warmed: [], values: new Set() }));
  let id = 0;
  const one = async (code, warm) => {
    const sid = `p${++id}`;
    await host.open(sid, spec);
    const session = host.sessions.get(sid).session;
    if (warm && !(await session.warmUp(10_000))) throw new Error('the warm-up was refused');
    const run = (source) => host.run(sid, { source, preset: 'standard', timeoutMs: 60_000 });
    await run('award_data.numRows()');
    const r = await run(code);
    host.close(sid);
    if (r.status !== 'ok') throw new Error(`${code}: ${r.message}`);
    return { cpu: r.stats.cpuMs, value: r.outcomeJson };
  };
  try {
    for (let i = 0; i < samples; i++) {
      for (let k = 0; k < programs.length; k++) {
        for (const warm of i % 2 ? [true, false] : [false, true]) {
          const r = await one(programs[k], warm);
          got[k][warm ? 'warmed' : 'cold'].push(r.cpu);
          got[k].values.add(r.value);
        }
      }
      log(`inProcess sample ${i + 1}/${samples}`);
    }
  } finally {
    host.closeAll();
  }
  return {
    mode: 'inProcess',
    runs: programs.map((code, k) => ({
      code,
      cold: summarize(got[k].cold),
      warmed: summarize(got[k].warmed),
      sameAnswer: got[k].values.size === 1,
    })),
  };
}

if (process.env.BENCH_FIRST_RUN_PARTS_CHILD) {
  await child(JSON.parse(process.env.BENCH_FIRST_RUN_PARTS_CHILD));
} else if (measureArgs().mode === 'copyIn') {
  emit(await copyIn(measureArgs().samples ?? 15));
} else if (measureArgs().mode === 'inProcess') {
  const { samples = 7, programs = DEFAULT_PROGRAMS, cacheDir = CACHE_DIR } = measureArgs();
  emit(await inProcess(samples, programs, cacheDir));
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
