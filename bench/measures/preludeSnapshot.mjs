// The prelude from a V8 startup snapshot (docs/benchmarks.md "The prelude from a V8 snapshot
// (session 10)"): isolated-vm's `Isolate.createSnapshot([prelude], warmUp)` makes a heap with the
// prelude already evaluated, and `new ivm.Isolate({ snapshot })` starts from it. Nothing in src/
// uses it (this measure found no gain on a first run, and a broken heap on isolated-vm 5.0.4); the
// measure makes the snapshot itself and hands IsolatedVmSession.open an isolated-vm whose isolates
// start from it and skip the prelude's compile and run, so the session is otherwise today's.
//   mode "check": in this process, whether a snapshot of the prelude works on this Node and
//     isolated-vm: its size and time to make; a new isolate from it boots the prelude with an empty
//     bridge and runs the spare's warm-up (every question must answer), and a closure probe (a
//     function first called after the snapshot reads a variable of its enclosing function).
//   mode "ab" (default): `samples` rounds of fresh processes, one per arm in turn: `compile` (today:
//     the prelude compiled from its code cache and run), `snapshot` (from a snapshot of the prelude)
//     and `warm` (from a snapshot whose warm-up script booted a throwaway copy of the prelude and
//     ran the spare's warm-up, so V8 compiled the functions it calls). Each opens a session on the
//     full file, runs `award_data.numRows()`, then `programs`: open wall/isolate-CPU ms and each
//     program's isolate CPU ms; the answers must agree between arms. A first round per arm is
//     untimed (it writes the code cache).
// `ivm`: a path to an isolated-vm build to use instead of the one sbirtools loads (a 6.x or 7.x
// installed for Node 22 or 26 elsewhere: the repository installs only the build for its Node).
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv BENCH_ARGS='{"samples":9}' \
//     node --no-node-snapshot bench/measures/preludeSnapshot.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';

const SELF = fileURLToPath(import.meta.url);
const DEFAULT_PROGRAMS = [
  "award_data['Award Amount'].sum()",
  "award_data['Award Amount'].sum()",
  'award_data.Agency.value_counts().head(5)',
  "award_data.groupby('Agency').rollup({ total: op.sum('Award Amount') }).orderby(aq.desc('total')).slice(0, 5).objects()",
  "let s = 0; for (const r of award_data.select('Agency', 'Award Amount').objects()) if (r.Agency === 'Department of Defense') s += r['Award Amount'] || 0; s",
];
/** The warm-up script of arm `warm`: a throwaway boot (no table, no host) and the spare's questions. */
const WARM_UP = `globalThis.__sbirtools_boot({ tables: [], fetchColumn() { throw new Error('no host'); }, write() {}, limits: {} }).warm()`;
/**
 * A function first called after the snapshot, reading a one-letter variable of the function around
 * it (as the minified prelude's functions do): on isolated-vm 5.0.4 (Node 20) it throws
 * "s is not defined"; the same probe with a longer name answers.
 */
const CLOSURE_PROBE = `"use strict"; (() => { var s = (f, n) => { Object.defineProperty(f, 'name', { value: n }); return f; };
  function late() { return s(function q() {}, 'named').name; }
  Object.defineProperty(globalThis, '__probe', { value: late }); })();`;

async function engine(ivmPath) {
  if (ivmPath) {
    const ivm = createRequire(import.meta.url)(ivmPath);
    return { ivm, version: createRequire(import.meta.url)(`${ivmPath}/package.json`).version };
  }
  const { loadEngine } = await import(dist('src/runtime/engines/isolated-vm/loadIsolatedVm.js'));
  const { ivm, version } = loadEngine();
  return { ivm, version };
}

async function preludeSource() {
  const m = await import(dist('src/runtime/engines/preludeScript.js'));
  return m.preludeSource();
}

/** An isolated-vm whose isolates start from `snapshot` and skip the prelude's compile and run. */
function fromSnapshot(ivm, snapshot, prelude) {
  // the module's own properties are read-only: the wrapper inherits them and defines its Isolate
  function SnapshotIsolate(options) {
    const isolate = new ivm.Isolate({ ...options, snapshot });
    // isolated-vm's objects are not extensible: a proxy answers compileScriptSync, the rest is the isolate's
    return new Proxy(isolate, {
      get(target, key) {
        if (key === 'compileScriptSync')
          return (code, opts) => (code === prelude ? { runSync() {} } : target.compileScriptSync(code, opts));
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }
  const wrapped = Object.create(ivm, { Isolate: { value: SnapshotIsolate } });
  return wrapped;
}

async function check(ivmPath) {
  const { ivm, version } = await engine(ivmPath);
  const prelude = await preludeSource();
  const out = { node: process.version, v8: process.versions.v8, isolatedVm: version, arms: {} };
  // the closure probe alone, then the prelude (its warm-up must answer every question)
  const cases = [
    ['closureProbe', [{ code: CLOSURE_PROBE }], undefined, '__probe()'],
    ['snapshot', [{ code: prelude, filename: 'sbirtools-prelude.js' }], undefined, `JSON.stringify(${WARM_UP})`],
    ['warm', [{ code: prelude, filename: 'sbirtools-prelude.js' }], WARM_UP, `JSON.stringify(${WARM_UP})`],
  ];
  for (const [arm, scripts, warmUp, probe] of cases) {
    const r = {};
    try {
      const t = performance.now();
      const snap = ivm.Isolate.createSnapshot(scripts, warmUp);
      r.makeMs = performance.now() - t;
      r.bytes = snap.copy().byteLength;
      const t1 = performance.now();
      const isolate = new ivm.Isolate({ memoryLimit: 512, snapshot: snap });
      const context = isolate.createContextSync();
      r.isolateMs = performance.now() - t1;
      r.heapMb = isolate.getHeapStatisticsSync().used_heap_size / 1048576;
      try {
        r.answer = context.evalSync(probe);
      } catch (e) {
        r.answer = `throws: ${String(e.message ?? e)}`;
      }
      r.works = r.answer === (arm === 'closureProbe' ? 'named' : '[]');
      isolate.dispose();
    } catch (e) {
      r.works = false;
      r.error = String(e?.message ?? e);
    }
    out.arms[arm] = r;
    log(`${arm}: ${JSON.stringify(r)}`);
  }
  return { mode: 'check', ...out };
}

/** Child: one session on the full file, opened on `arm`, the programs run in order. */
async function child({ arm, snapshotFile, programs, cacheDir, ivmPath }) {
  const { ivm } = await engine(ivmPath);
  const { TableCache } = await import(dist('src/runtime/holder/tableProviders.js'));
  const { IsolatedVmSession } = await import(dist('src/runtime/engines/isolated-vm/isolatedVmSession.js'));
  const { checkAndPrepare } = await import(dist('src/runtime/prepare/checkAndPrepare.js'));
  const { usePreludeCodeCacheDir } = await import(dist('src/runtime/engines/preludeScript.js'));
  const { PRESETS } = await import(dist('schema/limits.js'));
  usePreludeCodeCacheDir(cacheDir);
  let engineIvm = ivm;
  if (snapshotFile) {
    const bytes = new Uint8Array(readFileSync(snapshotFile));
    engineIvm = fromSnapshot(ivm, new ivm.ExternalCopy(bytes.buffer), await preludeSource());
  }
  const award = await new TableCache().award({ kind: 'csv', path: CSV, cacheDir });
  const t0 = performance.now();
  const session = await IsolatedVmSession.open(engineIvm, { ...PRESETS.standard }, [award.provider], award.info);
  const openMs = performance.now() - t0;
  const openCpuMs = Number(session.isolate.cpuTime) / 1e6;
  const runs = [];
  for (const source of ['award_data.numRows()', ...programs]) {
    const checked = checkAndPrepare(source, 'standard');
    const t = performance.now();
    const r = await session.run({ ...checked.prepared, timeoutMs: 60_000 });
    const ms = performance.now() - t;
    if (r.status !== 'ok' || !JSON.parse(r.outcomeJson).ok)
      throw new Error(`${arm}: ${source}: ${r.message ?? r.outcomeJson.slice(0, 300)}`);
    runs.push({ ms, cpuMs: r.stats.cpuMs, answer: r.outcomeJson.slice(0, 300) });
  }
  session.dispose();
  process.stdout.write(`${JSON.stringify({ arm, openMs, openCpuMs, runs })}\n`);
  // the process ends here: the table's decode threads would keep it alive
  process.exit(0);
}

/**
 * One fresh process. Its JSON line is taken even when it dies after printing it: on Node 22 with
 * isolated-vm 6.2.0 a process that calls process.exit with a session's tables open sometimes ends
 * with SIGSEGV, in every arm alike (the count is reported).
 */
function spawnChild(spec) {
  const r = spawnSync(process.execPath, ['--no-node-snapshot', SELF], {
    env: { ...process.env, BENCH_PRELUDE_SNAPSHOT_CHILD: JSON.stringify(spec) },
    encoding: 'utf8',
    maxBuffer: 16 << 20,
  });
  const last = r.stdout.trim().split('\n').pop();
  if (!last?.startsWith('{'))
    throw new Error(`child ${spec.arm} failed (${r.signal ?? r.status}): ${r.stderr.slice(-2000)}`);
  return { ...JSON.parse(last), crashedAtExit: r.status !== 0 };
}

async function ab({
  samples = 9,
  programs = DEFAULT_PROGRAMS,
  cacheDir = CACHE_DIR,
  ivm: ivmPath,
  arms = ['compile', 'snapshot', 'warm'],
}) {
  const { ivm, version } = await engine(ivmPath);
  const prelude = await preludeSource();
  const dir = mkdtempSync(join(tmpdir(), 'sbirtools-prelude-snapshot-'));
  try {
    const files = {};
    const made = {};
    for (const arm of arms) {
      if (arm === 'compile') continue;
      const t = performance.now();
      const snap = ivm.Isolate.createSnapshot(
        [{ code: prelude, filename: 'sbirtools-prelude.js' }],
        arm === 'warm' ? WARM_UP : undefined,
      );
      const bytes = new Uint8Array(snap.copy());
      made[arm] = { makeMs: performance.now() - t, bytes: bytes.length };
      files[arm] = join(dir, `${arm}.snapshot`);
      writeFileSync(files[arm], bytes);
    }
    const got = Object.fromEntries(arms.map((a) => [a, []]));
    let crashes = 0;
    for (let i = -1; i < samples; i++) {
      for (const arm of i % 2 ? arms : [...arms].reverse()) {
        const r = spawnChild({ arm, snapshotFile: files[arm], programs, cacheDir, ivmPath });
        if (r.crashedAtExit) crashes++;
        if (i < 0) continue;
        got[arm].push(r);
        log(
          `${arm} #${i + 1}: open ${r.openMs.toFixed(1)} ms (cpu ${r.openCpuMs.toFixed(1)}); ${r.runs.map((x) => x.cpuMs).join(', ')} (isolate cpu ms)`,
        );
      }
    }
    const answers = (arm) => JSON.stringify(got[arm].map((r) => r.runs.map((x) => x.answer)));
    const out = {
      mode: 'ab',
      node: process.version,
      isolatedVm: version,
      samples,
      made,
      crashedAtExit: crashes,
      answersAgree: arms.every((a) => answers(a) === answers(arms[0])),
      arms: {},
    };
    for (const arm of arms) {
      const rs = got[arm];
      out.arms[arm] = {
        openMs: summarize(rs.map((r) => r.openMs)),
        openCpuMs: summarize(rs.map((r) => r.openCpuMs)),
        runs: ['award_data.numRows()', ...programs].map((code, k) => ({
          code,
          cpuMs: summarize(rs.map((r) => r.runs[k].cpuMs)),
        })),
      };
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_PRELUDE_SNAPSHOT_CHILD) {
  await child(JSON.parse(process.env.BENCH_PRELUDE_SNAPSHOT_CHILD));
} else if (measureArgs().mode === 'check') {
  emit(await check(measureArgs().ivm));
} else {
  emit(await ab(measureArgs()));
}
