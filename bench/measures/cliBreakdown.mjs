// The CLI cold start, step by step, in fresh processes: what `sbirtools run --code ... --data ...`
// does (bin/sbirtools.js: start the holder first, then load the CLI while it boots), with a clock
// between the steps, using the same internals as the CLI (defaultHolder, HolderProcess requests,
// precheck, buildResult; the holder parses). Also, each alone in a fresh process: bare Node, the holder's
// start-up, and loading only the modules run() needs.
//   BENCH_ARGS='{"runs":5}' node bench/measures/cliBreakdown.mjs
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WARM_QUESTIONS } from '../questions.mjs';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';

const code = WARM_QUESTIONS.find((q) => q.id === 'agencyTop5').js;
const probe = process.argv[2];
const print = (x) => {
  process.stdout.write(`${JSON.stringify(x)}\n`);
  process.exit(0);
};
// holders are unref'd while idle (they never keep a host alive): keep each probe's loop alive
const keepAlive = probe ? setInterval(() => undefined, 1000) : undefined;

if (probe === '--probe-imports') {
  const t = performance.now();
  await import(dist('src/sandbox/sandbox.js'));
  print({ ms: performance.now() - t });
}

if (probe === '--probe-holder') {
  const { HolderProcess } = await import(dist('src/runtime/holder/holderProcess.js'));
  const t = performance.now();
  const holder = new HolderProcess();
  await holder.request({ op: 'stats' });
  const ms = performance.now() - t;
  holder.shutdown();
  await holder.closed();
  print({ ms });
}

if (probe === '--probe') {
  const marks = { nodeStartMs: performance.now() };
  let t = performance.now();
  const lap = (name) => {
    const now = performance.now();
    marks[name] = now - t;
    t = now;
  };
  const { defaultHolderPool } = await import(dist('src/runtime/holder/defaultHolder.js'));
  const pool = defaultHolderPool();
  pool.prewarm();
  lap('holderStartMs');
  await import(dist('src/cli/main.js'));
  await import(dist('src/cli/run.js'));
  const { resolveSessionSpec, validateOptions } = await import(dist('src/sandbox/options.js'));
  const { resolveLimits } = await import(dist('schema/limits.js'));
  const { precheck } = await import(dist('src/sandbox/precheck.js'));
  const { buildResult } = await import(dist('src/result/buildResult.js'));
  lap('cliModulesMs');
  const holder = pool.holders[0];
  await holder.request({ op: 'stats' });
  lap('holderWaitMs');
  const limits = resolveLimits('standard', {});
  const spec = await resolveSessionSpec(validateOptions({ dataPath: CSV, cacheDir: CACHE_DIR }), limits);
  const { dataset } = await holder.request({ op: 'open', sessionId: 's', spec });
  lap('sessionOpenMs');
  const checked = precheck(code, limits);
  // the policy check and the transform happen in the holder, inside the deadline
  const raw = await holder.request({
    op: 'run',
    sessionId: 's',
    run: { source: checked.code, preset: 'standard', timeoutMs: limits.timeoutMs },
  });
  const result = buildResult(raw, { code, limits, dataset });
  JSON.stringify(result);
  lap('firstAnswerMs');
  await holder.request({ op: 'close', sessionId: 's' });
  await pool.shutdown();
  lap('shutdownMs');
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  clearInterval(keepAlive);
  print(marks);
}

const { runs = 5 } = measureArgs();
const self = fileURLToPath(import.meta.url);
const spawnMs = (args) => {
  const t = performance.now();
  const p = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (p.status !== 0) throw new Error(`${args.join(' ')} failed: ${p.stderr.slice(-1500)}`);
  return {
    wallMs: performance.now() - t,
    out: p.stdout.trim() ? JSON.parse(p.stdout.trim().split('\n').pop()) : undefined,
  };
};
const rows = { probes: [], bare: [], bareNoSnapshot: [], runModules: [], holderAlone: [] };
for (let i = 0; i < runs; i++) {
  rows.bare.push(spawnMs(['-e', '0']).wallMs);
  rows.bareNoSnapshot.push(spawnMs(['--no-node-snapshot', '-e', '0']).wallMs);
  rows.runModules.push(spawnMs([self, '--probe-imports']).out.ms);
  rows.holderAlone.push(spawnMs([self, '--probe-holder']).out.ms);
  const p = spawnMs([self, '--probe']);
  rows.probes.push({ ...p.out, wallMs: p.wallMs });
  log(
    `cli breakdown ${i + 1}/${runs}: ${JSON.stringify(rows.probes.at(-1), (k, v) => (typeof v === 'number' ? Math.round(v) : v))}`,
  );
}
emit({
  question: 'sum of Award Amount by Agency, top 5',
  steps: Object.fromEntries(Object.keys(rows.probes[0]).map((s) => [s, summarize(rows.probes.map((p) => p[s]))])),
  bareNodeMs: summarize(rows.bare),
  bareNodeNoSnapshotMs: summarize(rows.bareNoSnapshot),
  runModulesOnlyMs: summarize(rows.runModules),
  holderAloneMs: summarize(rows.holderAlone),
});
