// First runs with two (build, cache folder) arms side by side (docs/benchmarks.md "A warm code cache
// of the prelude (session 19)"): each sample is a fresh process that opens a sandbox on the full
// file with the arm's build and cache folder, answers `award_data.numRows()` (untimed), then runs
// one styles program (bench/model-styles.mjs), timed: wall, the isolate's CPU (`stats.cpuMs`) and
// the open. The arms alternate per sample; ratios are second / first, geo-means over the programs'
// medians. The cache folders hold the binary data cache (hard-link one: `cp -al`) and whichever
// prelude code caches the arm should start from.
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv BENCH_ARGS='{"arms":[
//     {"name":"plain","dist":"/base/dist","cacheDir":"/tmp/ccA"},{"name":"warm","dist":"dist","cacheDir":"/tmp/ccB"}],
//     "samples":3,"only":["totalAmount","over1M"]}' node --no-node-snapshot bench/measures/firstRunCaches.mjs
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MODEL_STYLE_QUESTIONS, STYLES } from '../model-styles.mjs';
import { CSV } from '../lib/paths.mjs';

const SELF = fileURLToPath(import.meta.url);

if (process.env.FIRST_RUN_CACHES_CHILD) {
  const { dist, cacheDir, code } = JSON.parse(process.env.FIRST_RUN_CACHES_CHILD);
  const api = await import(pathToFileURL(join(resolve(dist), 'src', 'index.js')).href);
  const t0 = performance.now();
  const box = await api.createSandbox({ dataPath: CSV, cacheDir });
  const open = await box.run('award_data.numRows()');
  if (!open.ok) throw new Error(JSON.stringify(open.error));
  const openMs = performance.now() - t0;
  const t1 = performance.now();
  const r = await box.run(code);
  const ms = performance.now() - t1;
  process.stdout.write(`${JSON.stringify({ ms, cpu: r.stats?.cpuMs ?? null, openMs, ok: r.ok })}\n`);
  await box.close();
  await api.shutdown();
} else {
  const args = JSON.parse(process.env.BENCH_ARGS ?? '{}');
  const { arms, samples = 3, only, styles = STYLES } = args;
  if (!Array.isArray(arms) || arms.length !== 2) throw new Error('BENCH_ARGS.arms: two { name, dist, cacheDir }');
  const sample = (arm, code) => {
    const p = spawnSync(process.execPath, ['--no-node-snapshot', SELF], {
      encoding: 'utf8',
      env: { ...process.env, FIRST_RUN_CACHES_CHILD: JSON.stringify({ dist: arm.dist, cacheDir: arm.cacheDir, code }) },
    });
    const out = JSON.parse(p.stdout.trim().split('\n').pop() ?? 'null');
    if (!out?.ok) throw new Error(`${arm.name}: ${code}: ${p.stderr.slice(-400)}`);
    return out;
  };
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const geo = (xs) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
  const per = { ms: [[], []], cpu: [[], []], openMs: [[], []] };
  for (const q of MODEL_STYLE_QUESTIONS) {
    if (only && !only.includes(q.id)) continue;
    for (const s of styles) {
      const got = [[], []];
      for (let i = 0; i < samples; i++) for (const a of i % 2 ? [1, 0] : [0, 1]) got[a].push(sample(arms[a], q[s]));
      const cells = [];
      for (const k of ['ms', 'cpu', 'openMs']) {
        const m = [0, 1].map((a) => median(got[a].map((o) => o[k])));
        m.forEach((v, a) => per[k][a].push(Math.max(v, 0.01)));
        cells.push(`${k} ${m[0].toFixed(1)} -> ${m[1].toFixed(1)}`);
      }
      console.log(`${q.id} ${s}: ${cells.join(', ')}`);
    }
  }
  const ratio = (k) => (geo(per[k][1]) / geo(per[k][0])).toFixed(3);
  console.log(
    `${arms[1].name} / ${arms[0].name}, geo-mean of medians over ${per.ms[0].length} programs: first-run wall ${ratio('ms')}, isolate CPU ${ratio('cpu')}, open ${ratio('openMs')}`,
  );
}
