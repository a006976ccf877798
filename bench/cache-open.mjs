#!/usr/bin/env node
// Justifies the binary cache format (docs/dataset.md, "Cache format"): time to open the cache
// and read two columns (Award Amount, Agency), our per-column file vs an Arrow IPC file read with
// @uwdata/flechette (which needs the whole file in memory). Each measure runs in a fresh process.
//   node bench/cache-open.mjs FILE.csv [runs=5]
// Needs the build (npm run build); SBIRTOOLS_DIST=<dir> points at another build output.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const self = fileURLToPath(import.meta.url);
const dist = process.env.SBIRTOOLS_DIST
  ? pathToFileURL(resolve(process.env.SBIRTOOLS_DIST) + '/')
  : new URL('../dist/', import.meta.url);
const load = (p) => import(new URL(p, dist).href);
const COLS = ['Award Amount', 'Agency'];

if (process.argv[2] === '--measure') {
  const [, , , kind, file] = process.argv;
  // modules load first: the measure is the data work, not the import of zod or flechette
  const { openCache } = await load('src/data/cache/readCache.js');
  const { readFileSync } = await import('node:fs');
  const { tableFromIPC } = await import('@uwdata/flechette');
  const t = performance.now();
  if (kind === 'sbtc') {
    const r = openCache(file, 'bench');
    if (!r.ok) throw new Error(r.reason);
    for (const c of COLS) r.reader.loadColumn(c);
  } else {
    const table = tableFromIPC(readFileSync(file));
    for (const c of COLS) table.getChild(c).toArray();
  }
  const ms = performance.now() - t;
  console.log(JSON.stringify({ ms, rssMb: process.memoryUsage().rss / 1e6 }));
  process.exit(0);
}

const csv = process.argv[2];
const runs = Number(process.argv[3] ?? 5);
const { ingestCsv } = await load('src/data/ingest/ingestCsv.js');
const { writeCache } = await load('src/data/cache/writeCache.js');
const { tableFromArrays, tableToIPC, float64, dictionary, utf8 } = await import('@uwdata/flechette');
const dir = mkdtempSync(join(tmpdir(), 'sbt-cache-bench-'));
const { table, report } = await ingestCsv(csv);
const sbtc = join(dir, 'award_data.sbtc');
await writeCache(sbtc, {
  key: 'bench',
  table,
  info: { name: 'bench', synthetic: true, source: csv, identity: 'bench', rows: table.numRows },
  report,
});

// the same table as Arrow: float64 with nulls, dictionary<utf8> and utf8 columns
const dec = new TextDecoder();
const arrays = {};
const types = {};
for (const c of table.columns) {
  const d = c.data;
  const n = table.numRows;
  if (d.kind === 'float64') {
    arrays[c.name] = Array.from({ length: n }, (_, i) => (d.valid[i] ? d.values[i] : null));
    types[c.name] = float64();
  } else if (d.kind === 'dict') {
    const dict = Array.from({ length: d.dictOffsets.length - 1 }, (_, k) =>
      dec.decode(d.dictBytes.subarray(d.dictOffsets[k], d.dictOffsets[k + 1])),
    );
    arrays[c.name] = Array.from(d.codes, (k) => (k < 0 ? null : dict[k]));
    types[c.name] = dictionary(utf8());
  } else {
    arrays[c.name] = Array.from({ length: n }, (_, i) =>
      d.valid[i] ? dec.decode(d.bytes.subarray(d.offsets[i], d.offsets[i + 1])) : null,
    );
    types[c.name] = utf8();
  }
}
const arrow = join(dir, 'award_data.arrow');
writeFileSync(arrow, tableToIPC(tableFromArrays(arrays, { types }), { format: 'file' }));

console.log(
  `${csv}: ${table.numRows} rows; sbtc ${(statSync(sbtc).size / 1e6).toFixed(0)} MB, arrow ${(statSync(arrow).size / 1e6).toFixed(0)} MB; open + read ${COLS.join(', ')}; median of ${runs} fresh processes (page cache warm)`,
);
console.log('| format | median ms | RSS MB |\n|---|--:|--:|');
for (const [kind, file] of [
  ['sbtc', sbtc],
  ['arrow', arrow],
]) {
  const results = Array.from({ length: runs }, () =>
    JSON.parse(execFileSync(process.execPath, [self, '--measure', kind, file], { env: process.env }).toString()),
  );
  const ms = results.map((r) => r.ms).sort((a, b) => a - b)[Math.floor(runs / 2)];
  const rss = results.map((r) => r.rssMb).sort((a, b) => a - b)[Math.floor(runs / 2)];
  console.log(
    `| ${kind === 'sbtc' ? 'SBTC (ours): header + 2 columns by readSync at offsets' : 'Arrow IPC file via flechette: readFileSync + tableFromIPC + 2 columns'} | ${ms.toFixed(1)} | ${rss.toFixed(0)} |`,
  );
}
