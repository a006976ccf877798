import { writeFileSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
const { decodeParquet } = await import('./dist/src/data/formats/parquet.js');
const { DEFAULT_DECODE_CAPS } = await import('./dist/src/data/formats/decodeCaps.js');
const dir = mkdtempSync(join(tmpdir(), 'prof-'));
const agencies = ['DOD', 'HHS', 'NSF', 'DOE', 'NASA', 'USDA', 'DOC', 'ED', 'EPA', 'DHS'];
const lines = ['UEI,Agency,Company,Amount,Start,Active,Employees,Note'];
for (let i = 0; i < 200000; i++) {
  const d = new Date(Date.UTC(2000, 0, 1) + (i % 9000) * 86_400_000).toISOString().slice(0, 10);
  lines.push(`U${(1e11 + i * 7919).toString(36).toUpperCase()},${agencies[i % 10]},Company ${i % 50000} LLC,${(i * 37.5) % 1e6},${d},${i % 3 === 0},${i % 500},${i % 7 === 0 ? '' : `note ${i % 1000}`}`);
}
writeFileSync(join(dir, 't.csv'), lines.join('\n') + '\n');
const duck = await (await DuckDBInstance.create(':memory:')).connect();
await duck.run(`COPY (SELECT * FROM read_csv('${join(dir, 't.csv')}')) TO '${join(dir, 't.parquet')}' (FORMAT parquet)`);
const bytes = new Uint8Array(readFileSync(join(dir, 't.parquet')));
for (let k = 0; k < 12; k++) {
  const t = performance.now();
  const tab = await decodeParquet('t', bytes, 't.parquet', DEFAULT_DECODE_CAPS);
  if (k > 8) console.log('decode ms', (performance.now() - t).toFixed(1), tab.columns.map(c => c.name + ':' + c.data.kind).join(' '));
}
// per column
const { parquetMetadata } = await import('hyparquet');
