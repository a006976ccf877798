// The cold path of bench/scale.mjs's user table, step by step (issue 25 item 4): each probe in a
// fresh process, on a file the scale bench wrote (`node --no-node-snapshot bench/scale.mjs --keep`
// leaves them in a temporary folder; delete it after).
//   node --no-node-snapshot bench/measures/scaleCold.mjs --file /tmp/sbirtools-scale-x/t1000000.parquet [--runs 3]
// Probes:
//   process  what the scale bench times: import sbirtools, createSandbox (holder process), the
//            group-by; and an empty sandbox's create + run('1') for the part that is not the table's
//   steps    the holder's work one step at a time, nothing overlapped, in one process: Node's own
//            start, loading the modules, loading isolated-vm, two column workers started and the
//            file opened in them (footer and page headers), a second open (the checks alone), the
//            isolate + prelude, and the decode of each column the group-by reads
//   cpu      the cold answer (createSandbox with the table + the group-by) in CPU ms: the caller's
//            process and the holder process (every thread), where wall time says little under load
//   duckdb   DuckDB's cold answer (bench/scale.mjs's DUCK_WORKER) step by step: its import, the
//            instance, the connection, the view over read_parquet, the group-by, the group-by again
//   inline   the holder's path as it runs (isolation: 'inline'): a timeline of the column jobs, the
//            isolate's boot and the guest's column fetches, then memory after each bench question
//            (process RSS and peak, this thread's heap, Node buffers, each column worker's heap,
//            the isolate's heap)
// Prints one JSON line per probe run on stdout; a summary (medians) on stderr.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const dist = (p) => join(root, 'dist', p);
const GROUPBY =
  "t.groupby('Agency').rollup({ n: op.count(), s: op.sum('Amount') }).orderby('Agency').objects().map((r) => [r.Agency, r.n, Math.round(r.s)])";
const QUESTIONS = {
  groupby: GROUPBY,
  filterCount: "t.filter((d) => d.Amount > 5000 && d.Phase === 'Phase II').numRows()",
  distinct: 't.Company.nunique()',
  topk: "t.orderby(aq.desc('Amount')).slice(0, 10).array('Amount').map((x) => Math.round(x * 100))",
  contains: "t.Abstract.str.contains('quantum').sum()",
};

const { values } = parseArgs({
  options: {
    file: { type: 'string' },
    runs: { type: 'string' },
    probe: { type: 'string' },
    probes: { type: 'string' },
  },
});
const file = values.file;
const mb = (b) => Math.round(b / 1048576);
const status = () => {
  const s = readFileSync('/proc/self/status', 'utf8');
  const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN);
  return { rssMb: Math.round(kb('VmRSS') / 1024), hwmMb: Math.round(kb('VmHWM') / 1024) };
};

if (values.probe === 'process') {
  const boot = performance.now();
  let t = performance.now();
  const { createSandbox } = await import(dist('src/index.js'));
  const importMs = performance.now() - t;
  t = performance.now();
  const empty = await createSandbox({ awardData: false });
  const emptyCreateMs = performance.now() - t;
  t = performance.now();
  await empty.run('1');
  const emptyRunMs = performance.now() - t;
  await empty.close();
  t = performance.now();
  const box = await createSandbox({ awardData: false, tables: { t: file }, timeoutMs: 600000 });
  const createMs = performance.now() - t;
  t = performance.now();
  const r = await box.run(GROUPBY);
  const groupbyMs = performance.now() - t;
  t = performance.now();
  await box.run(GROUPBY);
  const warmMs = performance.now() - t;
  await box.close();
  process.stdout.write(
    `${JSON.stringify({ probe: 'process', ok: r.ok, nodeBootMs: boot, importMs, emptyCreateMs, emptyRunMs, createMs, groupbyMs, warmMs })}\n`,
  );
  process.exit(0);
}

if (values.probe === 'cpu') {
  // the cold answer's CPU, where wall time says little on a loaded machine: this process's (the
  // caller's side of createSandbox and the run) and the holder's (every thread it ran, exited ones
  // included: /proc/<pid>/stat, in clock ticks), after an untimed import of sbirtools
  const { createSandbox } = await import(dist('src/index.js'));
  const { childPids } = await import(join(root, 'bench/lib/procMem.mjs'));
  const before = new Set(childPids(process.pid));
  const c = process.cpuUsage();
  const t = performance.now();
  const box = await createSandbox({ awardData: false, tables: { t: file }, timeoutMs: 600000 });
  const r = await box.run(GROUPBY);
  const wallMs = performance.now() - t;
  const d = process.cpuUsage(c);
  const tick = 1000 / 100; // USER_HZ
  let holderCpuMs = 0;
  for (const pid of childPids(process.pid).filter((x) => !before.has(x))) {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [utime, stime] = f
      .slice(f.lastIndexOf(')') + 2)
      .split(' ')
      .slice(11, 13)
      .map(Number);
    holderCpuMs += (utime + stime) * tick;
  }
  await box.close();
  const callerCpuMs = (d.user + d.system) / 1000;
  process.stdout.write(
    `${JSON.stringify({ probe: 'cpu', ok: r.ok, wallMs, callerCpuMs, holderCpuMs, totalCpuMs: callerCpuMs + holderCpuMs })}\n`,
  );
  process.exit(0);
}

if (values.probe === 'duckdb') {
  // DuckDB's cold answer as the scale bench times it (after its import), step by step, in a fresh process
  const boot = performance.now();
  let t = performance.now();
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const out = { probe: 'duckdb', nodeBootMs: boot, importMs: performance.now() - t };
  const timed = async (name, fn) => {
    const c = process.cpuUsage();
    t = performance.now();
    const v = await fn();
    out[name] = performance.now() - t;
    const d = process.cpuUsage(c);
    out[`${name}Cpu`] = (d.user + d.system) / 1000;
    return v;
  };
  const instance = await timed('createMs', () => DuckDBInstance.create(':memory:'));
  const con = await timed('connectMs', () => instance.connect());
  await timed('viewMs', () => con.run(`CREATE VIEW t AS SELECT * FROM read_parquet('${file}')`));
  const sql = 'SELECT Agency, count(*)::INTEGER, round(sum(Amount))::BIGINT FROM t GROUP BY Agency ORDER BY Agency';
  await timed('groupbyMs', () => con.runAndReadAll(sql));
  await timed('groupbyAgainMs', () => con.runAndReadAll(sql));
  out.threads = Number((await con.runAndReadAll("SELECT current_setting('threads')")).getRows()[0][0]);
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}

if (values.probe === 'steps') {
  const cpu0 = process.cpuUsage();
  const out = { probe: 'steps', nodeBootMs: performance.now(), nodeBootMsCpu: (cpu0.user + cpu0.system) / 1000 };
  // wall ms, and the process's CPU ms (every thread: the column workers' too) in `<name>Cpu`
  const step = async (name, fn) => {
    const t = performance.now();
    const c = process.cpuUsage();
    const v = await fn();
    out[name] = performance.now() - t;
    const d = process.cpuUsage(c);
    out[`${name}Cpu`] = (d.user + d.system) / 1000;
    return v;
  };
  const mods = await step('importMs', async () => ({
    workers: await import(dist('src/data/formats/lazyParquet/columnWorkers.js')),
    lazy: await import(dist('src/data/formats/lazyParquet/lazyParquetTable.js')),
    engines: await import(dist('src/runtime/engines/openEngineSession.js')),
    limits: await import(dist('schema/limits.js')),
    caps: await import(dist('src/data/formats/decodeCaps.js')),
    tableLimits: await import(dist('src/data/formats/tableLimits.js')),
  }));
  const engine = await step('loadIsolatedVmMs', () => mods.engines.resolveEngine('auto'));
  const caps = mods.caps.DEFAULT_DECODE_CAPS;
  const format = file.endsWith('.arrow') ? 'arrow' : 'parquet';
  const name = file.split('/').pop();
  const table = await step('workersStartAndOpenMs', () => mods.lazy.openLazyParquet('t', file, name, caps, { format }));
  await step('openAgainMs', () => mods.lazy.openLazyParquet('t2', file, name, caps, { format }));
  // a sandbox with user tables gets a host-scaled memory limit (sandbox.ts), and with it a larger young generation
  const presetMb = mods.limits.resolveLimits('standard', {}).memoryLimitMb;
  const limits = mods.limits.resolveLimits('standard', {
    memoryLimitMb: mods.tableLimits.tableMemoryLimitMb(presetMb),
  });
  const session = await step('isolateAndPreludeMs', () =>
    mods.engines.openEngineSession(engine, limits, [], undefined),
  );
  session.dispose('closed');
  await step('decodeAgencyMs', () => table.takeColumn('Agency'));
  await step('decodeAmountMs', () => table.takeColumn('Amount'));
  await step('decodeAgencyAgainMs', () => table.takeColumn('Agency'));
  out.rssMb = status().rssMb;
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}

if (values.probe === 'inline') {
  const t0 = performance.now();
  const events = [];
  // an event repeated back to back (a text scan asks for its column once per page) is noted once
  const at = (what) => {
    if (events.at(-2)?.[1] === what) return;
    events.push([Math.round(performance.now() - t0), what]);
  };
  const { createSandbox } = await import(dist('src/index.js'));
  const { columnWorkers } = await import(dist('src/data/formats/lazyParquet/columnWorkers.js'));
  const { DEFAULT_DECODE_CAPS } = await import(dist('src/data/formats/decodeCaps.js'));
  const { IsolatedVmSession } = await import(dist('src/runtime/engines/isolated-vm/isolatedVmSession.js'));
  const { TableCache } = await import(dist('src/runtime/holder/tableProviders.js'));
  at('imported');
  // the pool the holder code uses (one module instance): its jobs, timed
  const pool = columnWorkers(DEFAULT_DECODE_CAPS.heapMb);
  for (const m of ['start', 'post', 'wait', 'answer']) {
    const f = pool[m].bind(pool);
    pool[m] = (...a) => {
      const what = m === 'post' ? `${m} w${a[0]} ${a[1].op}${a[1].leaf !== undefined ? ` leaf ${a[1].leaf}` : ''}` : m;
      if (m !== 'answer') at(`${what}`);
      const r = f(...a);
      if (m === 'wait') at('wait done');
      if (m === 'answer') r.then(() => at('open answered'));
      return r;
    };
  }
  const open = IsolatedVmSession.open.bind(IsolatedVmSession);
  IsolatedVmSession.open = async (...a) => {
    at('isolate: open');
    const s = await open(...a);
    at('isolate: booted');
    return s;
  };
  const table = TableCache.prototype.table;
  TableCache.prototype.table = async function (spec) {
    at('table: open');
    const p = await table.call(this, spec);
    at('table: opened');
    for (const m of ['takeColumn', 'loadColumn', 'columnKind']) {
      const f = p[m];
      if (f)
        p[m] = (c) => {
          at(`${m}(${c})`);
          const r = f(c);
          at(`${m}(${c}) done`);
          return r;
        };
    }
    return p;
  };
  const box = await createSandbox({ awardData: false, isolation: 'inline', tables: { t: file }, timeoutMs: 600000 });
  at('createSandbox done');
  const mem = [];
  const snap = (after) => {
    const m = process.memoryUsage();
    const host = box.backend.host;
    const entry = [...host.sessions.values()][0];
    const h = entry.session.isolate.getHeapStatisticsSync();
    mem.push({
      after,
      ...status(),
      mainHeapMb: mb(m.heapTotal),
      arrayBuffersMb: mb(m.arrayBuffers),
      workersHeapMb: pool.slots.map((s) => (s ? Atomics.load(s.status, 1) : null)),
      isolateHeapMb: mb(h.total_heap_size),
      isolateUsedMb: mb(h.used_heap_size),
      isolateExternalMb: mb(h.externally_allocated_size ?? 0),
    });
  };
  const results = {};
  for (const [k, code] of Object.entries(QUESTIONS)) {
    at(`run ${k}`);
    const r = await box.run(code);
    at(`run ${k} done`);
    results[k] = r.ok;
    snap(k);
  }
  await new Promise((r) => setTimeout(r, 1500));
  snap('idle 1.5 s');
  await box.close();
  process.stdout.write(`${JSON.stringify({ probe: 'inline', results, events, mem })}\n`);
  process.exit(0);
}

// ---- the parent: each probe in a fresh process, `runs` times, interleaved ----
const runs = Number(values.runs ?? 3);
const probes = (values.probes ?? 'process,steps,inline').split(',');
const all = {};
for (let i = 0; i < runs; i++)
  for (const probe of probes) {
    const r = spawnSync(
      process.execPath,
      ['--no-node-snapshot', import.meta.filename, '--probe', probe, '--file', resolve(file)],
      { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 },
    );
    if (r.status !== 0) throw new Error(`${probe}: ${r.stderr.slice(-2000)}`);
    const line = r.stdout.trim().split('\n').pop();
    process.stdout.write(`${line}\n`);
    (all[probe] ??= []).push(JSON.parse(line));
  }
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [probe, rs] of Object.entries(all)) {
  if (probe === 'inline') continue;
  const keys = Object.keys(rs[0]).filter((k) => typeof rs[0][k] === 'number');
  process.stderr.write(`${probe}: ${keys.map((k) => `${k} ${median(rs.map((r) => r[k])).toFixed(0)}`).join(', ')}\n`);
}
