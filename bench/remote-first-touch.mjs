// First touch of a column (default Abstract) of a built data folder: read locally, and fetched
// from a static server on loopback (empty cache, then cached), each in a fresh process.
// Usage: node bench/remote-first-touch.mjs <format-2 folder> [--v1 <format-1 folder>] [--column Abstract] [--runs 3] [--latency-ms 0]
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const arg = (name, def) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : def);
const folder = process.argv[2];
const v1 = arg('--v1');
const column = arg('--column', 'Abstract');
const runs = Number(arg('--runs', 3));
const latency = Number(arg('--latency-ms', 0));
const root = new URL('..', import.meta.url).pathname;

const child = spawn(process.execPath, [join(root, 'test/helpers/dataFolderServer.mjs'), folder], {
  stdio: ['pipe', 'pipe', 'inherit'],
  env: { ...process.env, LATENCY_MS: String(latency) },
});
const port = await new Promise((resolve) =>
  child.stdout.on('data', (c) => /PORT (\d+)/.test(String(c)) && resolve(Number(/PORT (\d+)/.exec(String(c))[1]))),
);
const url = `http://127.0.0.1:${port}/`;

// one fresh process: open the dataset, touch the column, report ms and bytes
const probe = (dataPath, cacheDir) => {
  const script = `
    const t0 = performance.now();
    const { openDataset } = await import(${JSON.stringify(join(root, 'dist/src/data/openDataset.js'))});
    const { resolveDataSource } = await import(${JSON.stringify(join(root, 'dist/src/data/resolveDataSource.js'))});
    const t1 = performance.now();
    const ds = await openDataset(resolveDataSource({ dataPath: ${JSON.stringify(dataPath)}, cacheDir: ${JSON.stringify(cacheDir)}, env: {} }));
    const t2 = performance.now();
    const col = ds.loadColumn(${JSON.stringify(column)});
    const t3 = performance.now();
    console.log(JSON.stringify({ open: t2 - t1, touch: t3 - t2, bytes: ds.remote?.bytesFetched ?? null, requests: ds.remote?.requests ?? null, rows: (col.offsets ?? col.codes ?? col.values).length }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim());
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const rows = [];
const measure = (label, make) => {
  const got = Array.from({ length: runs }, make);
  rows.push({
    label,
    open: median(got.map((g) => g.open)),
    touch: median(got.map((g) => g.touch)),
    bytes: got[0].bytes,
    requests: got[0].requests,
  });
};
if (v1) measure('local, format 1 (uncompressed)', () => probe(v1, '/nonexistent'));
measure('local, format 2 (gzip)', () => probe(folder, '/nonexistent'));
measure(`remote over loopback${latency ? ` (+${latency} ms per request)` : ''}, empty cache`, () => {
  const cache = mkdtempSync(join(tmpdir(), 'sbt-bench-remote-'));
  try {
    return probe(url, cache);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});
const warm = mkdtempSync(join(tmpdir(), 'sbt-bench-remote-'));
probe(url, warm);
measure('remote, column already cached', () => probe(url, warm));
rmSync(warm, { recursive: true, force: true });
child.kill('SIGTERM');

console.log(`first touch of ${column} (median of ${runs} fresh processes)`);
console.log('| data | open ms | first touch ms | bytes fetched | requests |');
console.log('|---|--:|--:|--:|--:|');
for (const r of rows)
  console.log(
    `| ${r.label} | ${r.open.toFixed(0)} | ${r.touch.toFixed(0)} | ${r.bytes === null ? '-' : r.bytes.toLocaleString('en-US')} | ${r.requests ?? '-'} |`,
  );
