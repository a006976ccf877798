import { join } from 'node:path';
import type { ColumnarTable } from '../../../schema/columnar.js';
import { writeCache } from '../../../src/data/cache/writeCache.js';
import { ingestCsv } from '../../../src/data/ingest/ingestCsv.js';
import { tempDir } from './helpers.js';

/** A binary cache (key 'k', in a temp dir) of table `docs` with one utf8 column `body` holding these rows' bytes. */
export async function utf8CacheOf(rows: Array<Uint8Array | null>): Promise<string> {
  const offsets = new Int32Array(rows.length + 1);
  rows.forEach((r, i) => (offsets[i + 1] = offsets[i]! + (r?.length ?? 0)));
  const bytes = new Uint8Array(offsets[rows.length]!);
  rows.forEach((r, i) => r && bytes.set(r, offsets[i]!));
  const valid = Uint8Array.from(rows, (r) => (r ? 1 : 0));
  const table: ColumnarTable = {
    name: 'docs',
    numRows: rows.length,
    columns: [
      { name: 'body', type: 'string', kind: 'utf8', data: { kind: 'utf8', type: 'string', bytes, offsets, valid } },
    ],
  };
  const path = join(tempDir(), 'docs.sbtc');
  const info = { name: 'docs', synthetic: true, source: 'test', identity: 'x', rows: rows.length };
  await writeCache(path, { key: 'k', table, info, report: (await ingestCsv(Buffer.from('a\n1\n'))).report });
  return path;
}
