#!/usr/bin/env node
// Where one program's first run in a fresh session goes (issue 25, "First runs: what is not the cold
// loop (session 12)" in docs/benchmarks.md): in this fresh process, an inline session on the bench
// file, opened with `award_data.numRows()`, then the program with the isolate's CPU profiler and the
// host's (node:inspector) both running. Prints the run's wall and isolate CPU ms, then the top
// functions by self and by inclusive time, in the isolate and (with --host) on the host, and (with
// --tree MS) the host's call tree down to MS ms.
// Usage: SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv node --no-node-snapshot
//          bench/first-run-profile.mjs filteredObjectsLimit objects [--host] [--tree 3] [--top 20]
//   (a question id and style of bench/model-styles.mjs, or `--code '<program>'`). The profilers slow
//   every part down: read shares, not milliseconds. For readable names in the prelude, build it with
//   `minifyIdentifiers: false` in scripts/build-prelude.mjs (keepNames keeps function names already).
import { Session } from 'node:inspector';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { catchIsolate } from './lib/catchIsolate.mjs';
import { CACHE_DIR, CSV, dist } from './lib/paths.mjs';
import { MODEL_STYLE_QUESTIONS } from './model-styles.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    code: { type: 'string' },
    host: { type: 'boolean', default: false },
    tree: { type: 'string' },
    top: { type: 'string', default: '20' },
  },
});
const [id, style] = positionals;
const code = values.code ?? MODEL_STYLE_QUESTIONS.find((q) => q.id === id)?.[style];
if (!code) throw new Error('name a question id and style of bench/model-styles.mjs, or pass --code');

// catch the isolate the session creates, to profile it
const caught = catchIsolate(fileURLToPath(dist('src/runtime/engines/isolated-vm/loadIsolatedVm.js')));

const { createSandbox, shutdown } = await import(dist('src/index.js'));
const box = await createSandbox({ dataPath: CSV, cacheDir: CACHE_DIR, isolation: 'inline' });
await box.run('award_data.numRows()');
const session = new Session();
session.connect();
const post = (m, p) => new Promise((res, rej) => session.post(m, p, (e, r) => (e ? rej(e) : res(r))));
await post('Profiler.enable');
await post('Profiler.setSamplingInterval', { interval: 100 });
await post('Profiler.start');
caught().startCpuProfiler('first');
const t = performance.now();
const r = await box.run(code);
const ms = performance.now() - t;
const [{ profile: guest }] = await caught().stopCpuProfiler('first');
const { profile: host } = await post('Profiler.stop');
console.log(
  `${id ?? 'code'} ${style ?? ''}: wall ${ms.toFixed(1)} ms, isolate CPU ${r.stats?.cpuMs?.toFixed(1)} ms, ok ${r.ok}, ${JSON.stringify(r.value ?? r.error).slice(0, 100)}`,
);
const top = Number(values.top);
report('isolate', guest, top);
if (values.host) report('host', host, top);
if (values.tree) tree(host, Number(values.tree));
await box.close();
await shutdown();

function frame(node) {
  const cf = node.callFrame;
  return `${cf.functionName || '(anon)'} ${String(cf.url).split('/').pop()}:${cf.lineNumber}:${cf.columnNumber}`;
}

/** Top functions by self and by inclusive time (a function counted once per sample). */
function report(label, profile, n) {
  const byId = new Map(profile.nodes.map((x) => [x.id, x]));
  const parent = new Map();
  for (const x of profile.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const self = new Map();
  const incl = new Map();
  let total = 0;
  profile.samples.forEach((sid, i) => {
    const us = profile.timeDeltas[i + 1] ?? 0;
    total += us;
    const k = frame(byId.get(sid));
    self.set(k, (self.get(k) ?? 0) + us);
    const seen = new Set();
    for (let cur = sid; cur !== undefined; cur = parent.get(cur)) {
      const f = frame(byId.get(cur));
      if (seen.has(f)) continue;
      seen.add(f);
      incl.set(f, (incl.get(f) ?? 0) + us);
    }
  });
  const share = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
  console.log(`--- ${label}: self`);
  for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(share(us), k);
  console.log(`--- ${label}: inclusive`);
  for (const [k, us] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(share(us), k);
}

/** The host's call tree, nodes of at least `minMs`. */
function tree(profile, minMs) {
  const byId = new Map(profile.nodes.map((x) => [x.id, x]));
  const selfUs = new Map();
  profile.samples.forEach((sid, i) => selfUs.set(sid, (selfUs.get(sid) ?? 0) + (profile.timeDeltas[i + 1] ?? 0)));
  const totals = new Map();
  const totalOf = (nid) => {
    if (totals.has(nid)) return totals.get(nid);
    let us = selfUs.get(nid) ?? 0;
    for (const c of byId.get(nid).children ?? []) us += totalOf(c);
    totals.set(nid, us);
    return us;
  };
  console.log('--- host: call tree (ms)');
  const walk = (nid, depth) => {
    const ms = totalOf(nid) / 1000;
    if (ms < minMs) return;
    console.log(`${' '.repeat(depth)}${ms.toFixed(1)} ${frame(byId.get(nid))}`);
    for (const c of byId.get(nid).children ?? []) walk(c, depth + 1);
  };
  walk(profile.nodes[0].id, 0);
}
