// Issue 12: the trivial warm round trip (`1 + 1`, `award_data.numRows()`), this build against
// another build of sbirtools (before/after in ONE run: both are loaded into this process, each
// with its own holder process, and asked in turn at every repetition so machine noise hits both).
//   BENCH_ARGS='{"reps":2000,"baseDist":"/path/to/other/dist"}' node bench/measures/trivialRoundTrip.mjs
// Without baseDist only this build is measured. Process isolation (the default) throughout. The
// other build keeps its binary cache in its own folder (CACHE_DIR-base): a build of another cache
// format version sharing one would rebuild it.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { CACHE_DIR, CSV, DIST } from '../lib/paths.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { loadavg } from 'node:os';
import { quantile, summarize } from '../lib/stats.mjs';

const { reps = 2000, warmup = 300, baseDist } = measureArgs();
const builds = { current: DIST, ...(baseDist ? { base: baseDist } : {}) };
const boxes = {};
const shutdowns = [];
for (const [name, dir] of Object.entries(builds)) {
  const api = await import(pathToFileURL(join(dir, 'src', 'index.js')).href);
  boxes[name] = await api.createSandbox({
    dataPath: CSV,
    cacheDir: name === 'current' ? CACHE_DIR : `${CACHE_DIR}-base`,
  });
  shutdowns.push(api.shutdown);
}
const out = {};
for (const code of ['1 + 1', 'award_data.numRows()']) {
  const samples = Object.fromEntries(Object.keys(boxes).map((k) => [k, []]));
  for (let i = -warmup; i < reps; i++) {
    for (const [name, box] of Object.entries(boxes)) {
      const t = performance.now();
      const r = await box.run(code);
      const ms = performance.now() - t;
      if (!r.ok) throw new Error(`${name}: ${code}: ${JSON.stringify(r.error)}`);
      if (i >= 0) samples[name].push(ms);
    }
  }
  // p10 beside p50: on a loaded machine the low end shows the path's own cost, the median its scheduling
  out[code] = Object.fromEntries(
    Object.entries(samples).map(([k, v]) => [k, { ...summarize(v), p10: Math.round(quantile(v, 0.1) * 1000) / 1000 }]),
  );
  log(
    `trivial ${code}: ${Object.entries(out[code])
      .map(([k, s]) => `${k} p50 ${s.p50.toFixed(3)} ms (p10 ${s.p10.toFixed(3)}, p90 ${s.p90.toFixed(3)})`)
      .join(', ')} (load ${loadavg()[0].toFixed(1)})`,
  );
}
for (const box of Object.values(boxes)) await box.close();
for (const shutdown of shutdowns) await shutdown();
emit({ reps, builds, runs: out });
