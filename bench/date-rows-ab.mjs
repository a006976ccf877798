// Row paths over a date column, two builds interleaved (session 15, docs/benchmarks.md "Dates a run
// gets are its own"): each build runs in a child process of its own; per program, warm runs alternate
// between the builds (one sandbox each, `--warmup` runs first), and first runs (a new sandbox per run,
// its first program) alternate too. Prints each program's p50 wall and in-isolate CPU per build and
// the ratios (second / first); answers must agree.
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv node --no-node-snapshot bench/date-rows-ab.mjs \
//     --base /path/to/other/dist [--dist ./dist] [--reps 7] [--warmup 2] [--first 3] [--only a,b]
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MODEL_STYLE_QUESTIONS, answerOfRun } from './model-styles.mjs';
import { CACHE_DIR, CSV, DIST } from './lib/paths.mjs';

if (process.env.BENCH_DATE_AB_CHILD) {
  // child: {code, fresh} lines; a fresh run opens a new sandbox for the one program
  const { createSandbox, shutdown } = await import(
    pathToFileURL(`${process.env.BENCH_DATE_AB_CHILD}/src/index.js`).href
  );
  const open = () => createSandbox({ dataPath: CSV, cacheDir: CACHE_DIR });
  let box = await open();
  process.stdout.write('{}\n');
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line) continue;
    const { code, fresh } = JSON.parse(line);
    if (fresh) {
      await box.close();
      box = await open();
      await box.run('award_data.numRows()');
    }
    const t = performance.now();
    const r = await box.run(code);
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
const reps = Number(arg('reps', '7'));
const warmup = Number(arg('warmup', '2'));
const firsts = Number(arg('first', '3'));
const only = arg('only')?.split(',');

const D = 'Proposal Award Date';
const style = (id) => MODEL_STYLE_QUESTIONS.find((q) => q.id === id).objects;
const PROGRAMS = {
  latestAwardDate: style('latestAwardDate'),
  awards2021ByMonth: style('awards2021ByMonth'),
  // every row of a date column built (the row cache's rows)
  selectObjects: `award_data.select('${D}').objects().length`,
  selectTolist: `award_data.select('${D}', 'Agency').tolist().length`,
  // a chain's callbacks read the date field; the rows of its last filter hold the call's Dates
  chainFilter: `award_data.select('${D}', 'Agency').objects().filter(r => r['${D}'] && r['${D}'].getUTCFullYear() === 2021).length`,
  // a reused row over two fields, one a date read as written (a method the date loop does not cover)
  // for reference: array() made a fresh Date per row per call in both builds
  arrayDates: `award_data.array('${D}').length`,
  reusedRow: `let n = 0;\nfor (const r of award_data.select('${D}', 'Agency').objects()) if (r.Agency === 'DOD' && r['${D}']) n += r['${D}'].toISOString().length;\nn`,
};

function child(dist) {
  const p = spawn(process.execPath, ['--no-node-snapshot', fileURLToPath(import.meta.url)], {
    env: { ...process.env, BENCH_DATE_AB_CHILD: resolve(dist) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting = [];
  createInterface({ input: p.stdout }).on('line', (l) => waiting.shift()?.(JSON.parse(l)));
  const next = () => new Promise((r) => waiting.push(r));
  const ready = next();
  return {
    ready,
    run(code, fresh = false) {
      const answer = next();
      p.stdin.write(`${JSON.stringify({ code, fresh })}\n`);
      return answer;
    },
    end: () => p.stdin.end(),
  };
}

const p50 = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const A = child(base);
const B = child(arg('dist', DIST));
await Promise.all([A.ready, B.ready]);
const f = (x) => x.toFixed(2).padStart(8);
for (const [id, code] of Object.entries(PROGRAMS)) {
  if (only && !only.includes(id)) continue;
  const row = {};
  for (const [kind, count, skip, fresh] of [
    ['warm', reps, warmup, false],
    ['first', firsts, 0, true],
  ]) {
    const got = { a: [], b: [], ac: [], bc: [] };
    let same = true;
    for (let i = -skip; i < count; i++) {
      const order = i % 2 === 0 ? [A, B] : [B, A];
      const out = [];
      for (const arm of order) out.push(await arm.run(code, fresh));
      const [a, b] = order[0] === A ? out : [out[1], out[0]];
      same &&= a.answer === b.answer;
      if (i < 0) continue;
      got.a.push(a.ms);
      got.b.push(b.ms);
      got.ac.push(a.cpu);
      got.bc.push(b.cpu);
    }
    row[kind] =
      `${f(p50(got.a))} ${f(p50(got.b))} ${(p50(got.b) / p50(got.a)).toFixed(2)} (cpu ${f(p50(got.ac))} ${f(p50(got.bc))} ${(p50(got.bc) / p50(got.ac)).toFixed(2)})` +
      (same ? '' : ' ANSWERS DIFFER');
  }
  console.log(`${id.padEnd(18)} warm ${row.warm}   first ${row.first}`);
}
A.end();
B.end();
