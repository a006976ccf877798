// Issue 25 item 3: the warm round trip of small programs, process isolation against inline, this
// build against another (before/after in ONE run: every arm has its own sandbox, and the arms are
// asked in turn at every repetition so machine noise hits all of them).
//   BENCH_ARGS='{"reps":300,"baseDist":"/path/to/other/dist","inline":true}' node --no-node-snapshot bench/measures/roundTrip.mjs
// `gapMs`: sleep that long before each repetition (every arm's processes idle, as between an
// agent's calls; the arms then take turns going first); the default 0 asks the next repetition at
// once, when only the other arms' runs separate two runs of one arm. The figure depends on it
// (docs/benchmarks.md "The trivial round trip (session 16)").
// `styles`: programs of bench/model-styles.mjs too, as "question:style" ("over1M:verbs"), each
// measured as the three above (named by that string; `only` may name them).
// Prints min/p10/p50/p90 of the wall time of `box.run`, the p50 of wall minus the isolate's CPU
// (`stats.cpuMs`): what a run pays outside the guest's code, and the mean of that CPU.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { CACHE_DIR, CSV, DIST } from '../lib/paths.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { quantile } from '../lib/stats.mjs';
import { MODEL_STYLE_QUESTIONS } from '../model-styles.mjs';

const PROGRAMS = {
  one: '1',
  mean: "award_data['Award Amount'].mean()",
  loop: 'let s = 0; for (let i = 0; i < 219590; i++) s += i % 7; s',
};
const {
  reps = 300,
  warmup = 100,
  baseDist,
  others = {},
  inline = false,
  cacheDir = CACHE_DIR,
  only,
  gapMs = 0,
  styles = [],
} = measureArgs();
for (const name of styles) {
  const [id, style] = name.split(':');
  const code = MODEL_STYLE_QUESTIONS.find((q) => q.id === id)?.[style];
  if (!code) throw new Error(`no program ${name} in bench/model-styles.mjs (question:style)`);
  PROGRAMS[name] = code;
}
const arms = [];
// `others`: more builds by name ({ "json ipc": "/path/dist" }), each an arm of its own
for (const [name, dir] of Object.entries({ current: DIST, ...(baseDist ? { base: baseDist } : {}), ...others })) {
  const api = await import(pathToFileURL(join(dir, 'src', 'index.js')).href);
  // the other build keeps its cache in its own folder: another cache format version would rebuild it
  const cache = name === 'current' ? cacheDir : `${cacheDir}-base`;
  arms.push({ name, box: await api.createSandbox({ dataPath: CSV, cacheDir: cache }), shutdown: api.shutdown });
  // inline for this build only: a second copy of isolated-vm in one process aborts
  if (inline && name === 'current')
    arms.push({
      name: `${name} inline`,
      box: await api.createSandbox({ dataPath: CSV, cacheDir: cache, isolation: 'inline' }),
    });
}
const round = (x) => Math.round(x * 1000) / 1000;
const out = {};
for (const [id, code] of Object.entries(PROGRAMS)) {
  if (only && !only.includes(id)) continue;
  const samples = Object.fromEntries(arms.map((a) => [a.name, { wall: [], outside: [], cpu: [] }]));
  for (let i = -warmup; i < reps; i++) {
    if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    // after a gap the first arm meets this process idle too: each arm goes first in turn
    const start = gapMs > 0 ? (i + warmup) % arms.length : 0;
    for (const { name, box } of [...arms.slice(start), ...arms.slice(0, start)]) {
      const t = performance.now();
      const r = await box.run(code);
      const ms = performance.now() - t;
      if (!r.ok) throw new Error(`${name}: ${code}: ${JSON.stringify(r.error)}`);
      if (i >= 0) {
        samples[name].wall.push(ms);
        samples[name].outside.push(ms - (r.stats?.cpuMs ?? 0));
        samples[name].cpu.push(r.stats?.cpuMs ?? 0);
      }
    }
  }
  out[id] = Object.fromEntries(
    Object.entries(samples).map(([k, { wall, outside, cpu }]) => [
      k,
      {
        min: round(Math.min(...wall)),
        p10: round(quantile(wall, 0.1)),
        p50: round(quantile(wall, 0.5)),
        p90: round(quantile(wall, 0.9)),
        outsideP50: round(quantile(outside, 0.5)),
        // the isolate's CPU in 10 µs steps: their mean over many runs reads below a step
        cpuMean: round(cpu.reduce((a, b) => a + b, 0) / cpu.length),
      },
    ]),
  );
  log(`${id} (load ${loadavg()[0].toFixed(1)}):`);
  for (const [k, s] of Object.entries(out[id]))
    log(
      `  ${k.padEnd(16)} min ${s.min.toFixed(3)}  p10 ${s.p10.toFixed(3)}  p50 ${s.p50.toFixed(3)}  p90 ${s.p90.toFixed(3)}  wall-cpu p50 ${s.outsideP50.toFixed(3)}  cpu mean ${s.cpuMean.toFixed(3)}`,
    );
}
for (const { box } of arms) await box.close();
for (const { shutdown } of arms) await shutdown?.();
emit({ reps, warmup, gapMs, arms: arms.map((a) => a.name), runs: out });
