// Issue 25 item 2: the first touch of a long text column in a fresh process (what an agent pays on
// its first run), then the same code warm. Each question runs in its own child process: sandbox
// made, `1` run (the session is up), then the question (first) and again (warm).
//   node --no-node-snapshot bench/first-touch.mjs [--runs 3] [--base /path/to/other/dist] [--json] [--only 5,6]
// --only: the questions' indexes (0-based) to measure.
// --base measures another build in the same run, interleaved (before/after under the same load).
// Each build keeps its binary cache in its own folder under bench/data/first-touch-cache/ (two
// builds of different cache format versions sharing one would rebuild it on every process).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { CSV, DATA_DIR, DIST } from './lib/paths.mjs';

export const QUESTIONS = [
  ['str.len().mean()', "award_data['Abstract'].str.len().mean()"],
  ['str.contains literal sum', "award_data['Abstract'].str.contains('digital twin').sum()"],
  ['str.contains case=False sum', "award_data['Abstract'].str.contains('Digital Twin', { case: false }).sum()"],
  [
    'str.contains regex=False case=False',
    "award_data['Abstract'].str.contains('DIGITAL twin', { case: false, regex: false }).sum()",
  ],
  ['one row (get)', "award_data.get('Abstract', 12345).length"],
  // the loops models write (bench/model-styles.mjs): every row decoded into the isolate, or (the
  // null and equality tests) answered on the host
  [
    'array loop: mean length >= 100',
    "let t = 0, n = 0; for (const a of award_data.array('Abstract')) if (a && a.length >= 100) { t += a.length; n++; } t / n",
  ],
  [
    'objects filter: includes',
    "award_data.select('Abstract').objects().filter(r => r.Abstract && r.Abstract.includes('machine learning')).length",
  ],
  ['verbs filter: == null || === N/A', "award_data.filter(d => d.Abstract == null || d.Abstract === 'N/A').numRows()"],
  ['Series isna + eq N/A', "award_data['Abstract'].isna().sum() + award_data['Abstract'].eq('N/A').sum()"],
];

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};

if (process.argv.includes('--child')) {
  const api = await import(pathToFileURL(join(arg('--dist', DIST), 'src', 'index.js')).href);
  const code = QUESTIONS[Number(arg('--child', '0'))][1];
  const box = await api.createSandbox({
    dataPath: CSV,
    cacheDir: arg('--cache-dir', undefined),
    timeoutMs: 300_000,
    memoryLimitMb: 3072,
  });
  await box.run('1');
  let t = performance.now();
  const first = await box.run(code);
  const firstMs = performance.now() - t;
  t = performance.now();
  const warm = await box.run(code);
  const warmMs = performance.now() - t;
  await box.close();
  await api.shutdown();
  process.stdout.write(
    JSON.stringify({
      firstMs,
      warmMs,
      value: first.ok ? first.value : first.error,
      same: JSON.stringify(first.value) === JSON.stringify(warm.value),
    }),
  );
} else {
  const runs = Number(arg('--runs', 3));
  const base = arg('--base', '');
  const jsonOut = process.argv.includes('--json');
  const builds = [['this build', DIST], ...(base ? [['base', base]] : [])];
  const cacheDir = (i) => join(DATA_DIR, 'first-touch-cache', String(i));
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const self = fileURLToPath(import.meta.url);
  const rowsOut = [];
  if (!jsonOut)
    console.log(`| question | ${builds.map(([n]) => `${n} first ms | ${n} warm ms`).join(' | ')} | value |`);
  if (!jsonOut) console.log(`| --- | ${builds.map(() => '--: | --:').join(' | ')} | --- |`);
  const only = arg('--only', '');
  const picked = only ? only.split(',').map(Number) : QUESTIONS.map((_, i) => i);
  const bad = picked.filter((q) => !Number.isInteger(q) || q < 0 || q >= QUESTIONS.length);
  if (bad.length) {
    console.error(`--only ${only}: no question ${bad.join(', ')}; the indexes are 0-${QUESTIONS.length - 1}:`);
    QUESTIONS.forEach(([name], i) => console.error(`  ${i}  ${name}`));
    process.exit(2);
  }
  for (const q of picked) {
    const got = Object.fromEntries(builds.map(([n]) => [n, []]));
    let value;
    for (let r = 0; r < runs; r++) {
      for (const [b, [n, dir]] of builds.entries()) {
        const args = ['--no-node-snapshot', self, '--child', String(q), '--dist', dir, '--cache-dir', cacheDir(b)];
        const p = spawnSync(process.execPath, args, {
          encoding: 'utf8',
          maxBuffer: 1 << 24,
        });
        if (p.status !== 0) throw new Error(`${n}: ${QUESTIONS[q][0]}: ${p.stderr}`);
        const o = JSON.parse(p.stdout.trim().split('\n').pop());
        got[n].push(o);
        value = o.value;
      }
    }
    const cells = builds.map(
      ([n]) => `${median(got[n].map((o) => o.firstMs)).toFixed(0)} | ${median(got[n].map((o) => o.warmMs)).toFixed(1)}`,
    );
    rowsOut.push({
      name: QUESTIONS[q][0],
      code: QUESTIONS[q][1],
      value,
      ...Object.fromEntries(
        builds.map(([n]) => [
          n,
          { firstMs: median(got[n].map((o) => o.firstMs)), warmMs: median(got[n].map((o) => o.warmMs)) },
        ]),
      ),
    });
    if (!jsonOut) console.log(`| ${QUESTIONS[q][0]} | ${cells.join(' | ')} | ${JSON.stringify(value)} |`);
  }
  if (jsonOut) process.stdout.write(`${JSON.stringify({ runs, rows: rowsOut })}\n`);
}
