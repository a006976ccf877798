// Two builds side by side on the model-style programs (bench/model-styles.mjs), warm, interleaved: each
// build runs in a child process of its own holding one sandbox (the prelude bundle is the build's own,
// which bench/measures/modelStylesAB.mjs cannot give: it loads the worktree's bundle for both arms), and
// every program runs in turn on one and the other, alternating which goes first. Prints each program's
// p50 wall and in-isolate CPU per build and the ratio (second / first); answers must agree.
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv node bench/model-styles-dist-ab.mjs \
//     --base /path/to/other/dist [--dist ./dist] [--style objects] [--reps 7] [--warmup 2] [--only a,b]
//     [--stat min] (each program's fastest run instead of its p50: on a machine other work loads, the
//     run least disturbed by it)
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MODEL_STYLE_QUESTIONS, answerOfRun } from './model-styles.mjs';
import { CACHE_DIR, CSV, DIST } from './lib/paths.mjs';

if (process.env.BENCH_DIST_AB_CHILD) {
  // child: one sandbox on the build named; reads {code} lines, answers {ms, cpu, answer}
  const { createSandbox, shutdown } = await import(
    pathToFileURL(`${process.env.BENCH_DIST_AB_CHILD}/src/index.js`).href
  );
  const box = await createSandbox({ dataPath: CSV, cacheDir: CACHE_DIR });
  process.stdout.write('{}\n');
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line) continue;
    const t = performance.now();
    const r = await box.run(JSON.parse(line).code);
    const ms = performance.now() - t;
    process.stdout.write(
      `${JSON.stringify({ ms, cpu: r.stats?.cpuMs ?? NaN, answer: JSON.stringify(answerOfRun(r)) })}\n`,
    );
  }
  await box.close();
  await shutdown();
  process.exit(0);
}

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const base = arg('base');
if (!base) throw new Error('--base <dist folder of the other build> is required');
const style = arg('style', 'objects');
const reps = Number(arg('reps', '7'));
const warmup = Number(arg('warmup', '2'));
const only = arg('only')?.split(',');

function child(dist) {
  const p = spawn(process.execPath, ['--no-node-snapshot', fileURLToPath(import.meta.url)], {
    env: { ...process.env, BENCH_DIST_AB_CHILD: resolve(dist) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting = [];
  createInterface({ input: p.stdout }).on('line', (l) => waiting.shift()?.(JSON.parse(l)));
  const next = () => new Promise((r) => waiting.push(r));
  const ready = next();
  return {
    ready,
    run(code) {
      const answer = next();
      p.stdin.write(`${JSON.stringify({ code })}\n`);
      return answer;
    },
    end: () => p.stdin.end(),
  };
}

const stat = arg('stat', 'p50');
const p50 = (xs) => [...xs].sort((a, b) => a - b)[stat === 'min' ? 0 : xs.length >> 1];
const geo = (xs) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
const A = child(base);
const B = child(arg('dist', DIST));
await Promise.all([A.ready, B.ready]);
const ratios = { wall: [], cpu: [] };
for (const q of MODEL_STYLE_QUESTIONS) {
  if (only && !only.includes(q.id)) continue;
  const code = q[style];
  const got = { a: { ms: [], cpu: [] }, b: { ms: [], cpu: [] } };
  let answers;
  for (let i = -warmup; i < reps; i++) {
    const order = i % 2 === 0 ? [A, B] : [B, A];
    const out = [];
    for (const arm of order) out.push(await arm.run(code));
    const [a, b] = order[0] === A ? out : [out[1], out[0]];
    answers = [a.answer, b.answer];
    if (i < 0) continue;
    got.a.ms.push(a.ms);
    got.b.ms.push(b.ms);
    got.a.cpu.push(a.cpu);
    got.b.cpu.push(b.cpu);
  }
  const wall = p50(got.b.ms) / p50(got.a.ms);
  const cpu = p50(got.b.cpu) / p50(got.a.cpu);
  ratios.wall.push(wall);
  ratios.cpu.push(cpu);
  const f = (x) => x.toFixed(2).padStart(8);
  console.log(
    `${q.id.padEnd(26)} wall ${f(p50(got.a.ms))} ${f(p50(got.b.ms))} ${wall.toFixed(2)}   cpu ${f(p50(got.a.cpu))} ${f(p50(got.b.cpu))} ${cpu.toFixed(2)}` +
      (answers[0] === answers[1] ? '' : '   ANSWERS DIFFER'),
  );
}
console.log(
  `geo-mean second/first: wall ${geo(ratios.wall).toFixed(3)}, cpu ${geo(ratios.cpu).toFixed(3)} (${ratios.wall.length} programs)`,
);
A.end();
B.end();
