// What the V8 code cache for the prelude bundle buys: compile + evaluate the bundle in a fresh
// isolate without and with the cached data an earlier isolate produced (what
// src/runtime/engines/preludeScript.ts does from the second isolate of a process on).
// Needs `node --no-node-snapshot` (isolated-vm in this process).
//   BENCH_ARGS='{"runs":7}' node --no-node-snapshot bench/measures/codeCache.mjs
import { readFileSync } from 'node:fs';
import { DIST, dist } from '../lib/paths.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';

const { runs = 7 } = measureArgs();
const { loadEngine } = await import(dist('src/runtime/engines/isolated-vm/loadIsolatedVm.js'));
const { ivm } = loadEngine();
const source = readFileSync(`${DIST}/prelude/bundle.js`, 'utf8');
const boot = (cachedData) => {
  const isolate = new ivm.Isolate({ memoryLimit: 128 });
  const t = performance.now();
  const context = isolate.createContextSync();
  const script = isolate.compileScriptSync(source, {
    filename: 'sbirtools-prelude.js',
    produceCachedData: !cachedData,
    ...(cachedData ? { cachedData } : {}),
  });
  const compileMs = performance.now() - t;
  script.runSync(context, { timeout: 15_000 });
  const ms = performance.now() - t;
  const produced = script.cachedData;
  if (cachedData && script.cachedDataRejected) throw new Error('the code cache was rejected');
  isolate.dispose();
  return { compileMs, ms, produced };
};
const cache = boot().produced;
const without = [];
const withCache = [];
for (let i = 0; i < runs; i++) {
  without.push(boot());
  withCache.push(boot(cache));
}
const result = {
  bundleKb: Math.round(Buffer.byteLength(source) / 1024),
  cacheKb: Math.round(cache.copy().byteLength / 1024),
  withoutCache: {
    compileMs: summarize(without.map((x) => x.compileMs)),
    compileAndEvalMs: summarize(without.map((x) => x.ms)),
  },
  withCache: {
    compileMs: summarize(withCache.map((x) => x.compileMs)),
    compileAndEvalMs: summarize(withCache.map((x) => x.ms)),
  },
};
log(
  `code cache: compile+eval ${result.withoutCache.compileAndEvalMs.p50.toFixed(1)} ms without, ${result.withCache.compileAndEvalMs.p50.toFixed(1)} ms with`,
);
emit(result);
