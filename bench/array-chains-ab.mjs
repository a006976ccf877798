// Two builds side by side on the array style of the model-code questions (bench/model-styles.mjs), for
// a change to the prelude and the code preparation together (chains on t.array(col), issue 25): one
// warm session per build, each in its own Node process (its own prelude bundle), the runs of one
// question alternating between them (machine noise hits both alike). Prints, per question, the p50
// wall and isolate CPU time (`stats.cpuMs`) of `--reps` runs after two warm-up runs, their ratio, and
// whether the answers agree; then the geometric means.
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv node --no-node-snapshot bench/array-chains-ab.mjs \
//     --base /work/wt/base/dist [--after dist] [--reps 9] [--style array] [--only over1M,meanAmount]
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { MODEL_STYLE_QUESTIONS } from './model-styles.mjs';
import { CACHE_DIR, CSV, DIST } from './lib/paths.mjs';

/** Child mode: a warm session of one build answering the programs it reads, one JSON line each. */
async function serve(dist, cacheDir) {
  const { createSandbox, shutdown } = await import(pathToFileURL(resolve(dist, 'src/index.js')).href);
  const box = await createSandbox({ dataPath: CSV, cacheDir });
  await box.run('award_data.numRows()');
  process.stdout.write('ready\n');
  for await (const line of createInterface({ input: process.stdin })) {
    const t = performance.now();
    const r = await box.run(JSON.parse(line));
    const ms = performance.now() - t;
    const answer = JSON.stringify(r.ok ? r.value : r.error).slice(0, 200);
    process.stdout.write(`${JSON.stringify({ ms, cpu: r.stats?.cpuMs ?? NaN, answer })}\n`);
  }
  await box.close();
  await shutdown();
}

function child(dist, cacheDir) {
  const p = spawn(process.execPath, ['--no-node-snapshot', fileURLToPath(import.meta.url), '--serve', dist], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ARRAY_CHAINS_AB_CACHE: cacheDir },
  });
  const lines = createInterface({ input: p.stdout })[Symbol.asyncIterator]();
  return {
    next: async () => (await lines.next()).value,
    run: async (code) => {
      p.stdin.write(`${JSON.stringify(code)}\n`);
      return JSON.parse((await lines.next()).value);
    },
    end: () => p.stdin.end(),
  };
}

const p50 = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

async function main() {
  const { values } = parseArgs({
    options: {
      serve: { type: 'string' },
      base: { type: 'string' },
      after: { type: 'string', default: DIST },
      reps: { type: 'string', default: '9' },
      style: { type: 'string', default: 'array' },
      only: { type: 'string' },
    },
  });
  const cacheDir = process.env.ARRAY_CHAINS_AB_CACHE || CACHE_DIR;
  if (values.serve) return serve(values.serve, cacheDir);
  if (!values.base) throw new Error('--base: the dist folder of the build to compare with');
  const reps = Number(values.reps);
  const only = values.only?.split(',');
  const questions = only ? MODEL_STYLE_QUESTIONS.filter((q) => only.includes(q.id)) : MODEL_STYLE_QUESTIONS;
  const builds = { before: child(resolve(values.base), cacheDir), after: child(resolve(values.after), cacheDir) };
  for (const b of Object.values(builds)) await b.next();
  const ratios = { wall: [], cpu: [] };
  console.log('question | before p50 ms | after p50 ms | after/before | cpu before | cpu after | answers');
  for (const q of questions) {
    const s = { before: { ms: [], cpu: [] }, after: { ms: [], cpu: [] } };
    const answers = {};
    for (let i = -2; i < reps; i++) {
      for (const k of i % 2 ? ['before', 'after'] : ['after', 'before']) {
        const r = await builds[k].run(q[values.style]);
        answers[k] = r.answer;
        if (i >= 0) {
          s[k].ms.push(r.ms);
          s[k].cpu.push(r.cpu);
        }
      }
    }
    const [b, a] = [p50(s.before.ms), p50(s.after.ms)];
    const [cb, ca] = [p50(s.before.cpu), p50(s.after.cpu)];
    ratios.wall.push(a / b);
    ratios.cpu.push(ca / cb);
    const agree = answers.before === answers.after ? 'agree' : `DIFFER ${answers.before} / ${answers.after}`;
    console.log(`${q.id} | ${b.toFixed(2)} | ${a.toFixed(2)} | ${(a / b).toFixed(2)} | ${cb} | ${ca} | ${agree}`);
  }
  console.log(`geomean after/before: wall ${geo(ratios.wall).toFixed(3)}, cpu ${geo(ratios.cpu).toFixed(3)}`);
  for (const b of Object.values(builds)) b.end();
}

await main();
