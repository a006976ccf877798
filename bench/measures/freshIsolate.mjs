// 2d, a fresh isolate per run with the full table available: one-shot run(code, { dataPath }).
//   - warm spare: the holder keeps a pre-booted spare isolate per session shape; runs are spaced
//     by `gapMs` so the spare is refilled in between (as with a caller asking now and then);
//   - no spare: there is no switch, so every run gets a shape of its own (a distinct timeoutMs):
//     the holder (running, data open, prelude code cache warm) boots a new isolate per run;
//   - cold holder: createSandbox + run in a fresh host process (spawn, no code cache);
//   - inline first run: createSandbox({ isolation: 'inline' }) + run in a fresh process.
//   BENCH_ARGS='{"runs":30,"noSpareRuns":15,"coldRuns":5}' node bench/measures/freshIsolate.mjs
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { sleep, summarize } from '../lib/stats.mjs';
import { WARM_QUESTIONS } from '../questions.mjs';

const CODES = { numRows: 'award_data.numRows()', phase2: WARM_QUESTIONS.find((q) => q.id === 'phase2Since2015').js };
const self = fileURLToPath(import.meta.url);

if (process.argv[2] === '--probe') {
  // a fresh process: createSandbox (+ holder spawn unless inline) and the first run
  const isolation = process.argv[3];
  const t0 = performance.now();
  const { createSandbox, shutdown } = await import(dist('src/index.js'));
  const t = performance.now();
  const box = await createSandbox({ dataPath: CSV, cacheDir: CACHE_DIR, isolation });
  const createMs = performance.now() - t;
  const r = await box.run(CODES.numRows);
  const totalMs = performance.now() - t;
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  await box.close();
  await shutdown();
  process.stdout.write(`${JSON.stringify({ importMs: t - t0, createMs, totalMs })}\n`);
  process.exit(0);
}

const { runs = 30, noSpareRuns = 15, coldRuns = 5, gapMs = 300, noSpareGapMs = 400 } = measureArgs();
const { run, shutdown } = await import(dist('src/index.js'));

async function oneShot(code, extra = {}) {
  const t = performance.now();
  const r = await run(code, { dataPath: CSV, cacheDir: CACHE_DIR, ...extra });
  const ms = performance.now() - t;
  if (!r.ok) throw new Error(`${code}: ${JSON.stringify(r.error)}`);
  return ms;
}

const out = { warmSpare: {}, noSpare: {} };
await oneShot(CODES.numRows); // spawns the holder and opens the data; not measured
await sleep(1000);
for (const [name, code] of Object.entries(CODES)) {
  const s = [];
  for (let i = 0; i < runs + 2; i++) {
    const ms = await oneShot(code);
    if (i >= 2) s.push(ms);
    await sleep(gapMs);
  }
  out.warmSpare[name] = summarize(s);
  const n = [];
  for (let i = 0; i < noSpareRuns; i++) {
    n.push(await oneShot(code, { timeoutMs: 20_000 + i + (name === 'phase2' ? 1000 : 0) }));
    await sleep(noSpareGapMs);
  }
  out.noSpare[name] = summarize(n);
  log(
    `fresh isolate ${name}: warm spare p50 ${out.warmSpare[name].p50.toFixed(1)} ms, no spare p50 ${out.noSpare[name].p50.toFixed(1)} ms`,
  );
}
await shutdown();

for (const [name, isolation, flags] of [
  ['coldHolder', 'process', []],
  ['inlineFirst', 'inline', ['--no-node-snapshot']],
]) {
  const probes = [];
  for (let i = 0; i < coldRuns; i++) {
    const p = spawnSync(process.execPath, [...flags, self, '--probe', isolation], { encoding: 'utf8' });
    if (p.status !== 0) throw new Error(`probe ${name} failed: ${p.stderr.slice(-1500)}`);
    probes.push(JSON.parse(p.stdout.trim().split('\n').pop()));
  }
  out[name] = {
    createMs: summarize(probes.map((p) => p.createMs)),
    totalMs: summarize(probes.map((p) => p.totalMs)),
    importMs: summarize(probes.map((p) => p.importMs)),
  };
  log(`fresh isolate ${name}: createSandbox + first run p50 ${out[name].totalMs.p50.toFixed(1)} ms`);
}
emit({ codes: CODES, gapMs, ...out });
