// Serverless cold start (issue 13): build a read-only data directory once (`sbirtools build-data`),
// then, in fresh processes that cannot write anywhere (cache dir and HOME under /dev/null), time a
// createHandler() answer from it: process spawn -> first 200. Prints JSON.
//   node bench/serverless-cold.mjs [--csv <award_data.csv>] [--repeat 5]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './lib/paths.mjs';

const { values } = parseArgs({ options: { csv: { type: 'string', default: process.env.SBIRTOOLS_BENCH_CSV }, repeat: { type: 'string', default: '5' } } });
const dir = join(mkdtempSync(join(tmpdir(), 'sbirtools-datadir-')), 'data');
const t0 = performance.now();
execFileSync(process.execPath, [join(ROOT, 'bin', 'sbirtools.js'), 'build-data', dir, ...(values.csv ? ['--data', values.csv] : [])], { stdio: 'inherit', env: { ...process.env, SBIRTOOLS_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sbirtools-build-cache-')) } });
const buildSeconds = (performance.now() - t0) / 1000;
const snapshot = () => readdirSync(dir).map((f) => `${f}:${statSync(join(dir, f)).size}:${statSync(join(dir, f)).mtimeMs}`).join(',');
const before = snapshot();

const child = `
const t = performance.now();
const { createHandler, shutdown } = await import(${JSON.stringify(join(ROOT, 'dist', 'src', 'index.js'))});
const handler = createHandler({ sandbox: { dataPath: process.env.DATA_DIR } });
const res = await handler(new Request('http://fn/', { method: 'POST', body: JSON.stringify({ code: "award_data.groupby('Agency').count().objects().length" }) }));
const body = await res.json();
const answered = performance.now() - t;
await shutdown();
console.log(JSON.stringify({ status: res.status, ok: body.ok, value: body.value, rows: body.dataset?.rows, answeredInProcessMs: answered }));
`;
const runs = [];
for (let i = 0; i < Number(values.repeat); i++) {
  const start = performance.now();
  const r = spawnSync(process.execPath, ['--no-node-snapshot', '--input-type=module', '-e', child], {
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: dir, SBIRTOOLS_CACHE_DIR: '/dev/null/sbirtools-cache', HOME: '/dev/null/home', SBIRTOOLS_CSV_PATH: '' },
  });
  const wall = performance.now() - start;
  if (r.status !== 0) throw new Error(r.stderr);
  runs.push({ ...JSON.parse(r.stdout.trim().split('\n').pop()), spawnToExitMs: Math.round(wall) });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(JSON.stringify({
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version },
  source: values.csv ?? 'synthetic sample',
  rows: runs[0].rows,
  dataDirMb: Math.round(readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0) / 1e6),
  buildSeconds: Math.round(buildSeconds * 10) / 10,
  coldAnswerMedianMs: Math.round(median(runs.map((r) => r.answeredInProcessMs))),
  spawnToExitMedianMs: median(runs.map((r) => r.spawnToExitMs)),
  dataDirUnchanged: snapshot() === before,
  runs,
}, null, 2));
