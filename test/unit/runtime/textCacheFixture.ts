// A binary cache holding text columns, and a provider over it that counts its reads: the fixture of
// the tests of the host's page reads (textPageServer.test.ts, hostScan.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ColumnarTable, TextScanRequest } from '../../../schema/columnar.js';
import { openCache } from '../../../src/data/cache/readCache.js';
import { writeCache } from '../../../src/data/cache/writeCache.js';
import { datasetFromCache } from '../../../src/data/dataDir.js';
import { ingestCsv } from '../../../src/data/ingest/ingestCsv.js';
import type { TableProvider } from '../../../src/runtime/engines/engineSession.js';
import { tempDir } from '../data/helpers.js';

/**
 * A cache file (key 'k') of a table `docs` whose columns named `columns` all hold `rowText(i)` for
 * rows 0..numRows-1 (null: a missing value). `bytesAt` is where the first column's UTF-8 bytes start.
 */
export async function cachedText(
  numRows: number,
  rowText: (i: number) => string | null,
  columns: string[] = ['body'],
): Promise<{ path: string; bytesAt: number }> {
  const enc = new TextEncoder();
  const parts = Array.from({ length: numRows }, (_, i) => enc.encode(rowText(i) ?? ''));
  const offsets = new Int32Array(numRows + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.length));
  const bytes = new Uint8Array(offsets[numRows]!);
  parts.forEach((p, i) => bytes.set(p, offsets[i]!));
  const valid = Uint8Array.from({ length: numRows }, (_, i) => (rowText(i) === null ? 0 : 1));
  const table: ColumnarTable = {
    name: 'docs',
    numRows,
    columns: columns.map((name) => ({
      name,
      type: 'string',
      kind: 'utf8',
      data: { kind: 'utf8', type: 'string', bytes, offsets, valid },
    })),
  };
  const path = join(tempDir(), 'docs.sbtc');
  const info = { name: 'docs', synthetic: true, source: 'test', identity: 'x', rows: numRows };
  await writeCache(path, { key: 'k', table, info, report: (await ingestCsv(Buffer.from('a\n1\n'))).report });
  const raw = readFileSync(path);
  const header = JSON.parse(raw.subarray(24, 24 + raw.readUInt32LE(12)).toString('utf8')) as {
    columns: Array<{ buffers: Record<string, { offset: number }> }>;
  };
  return { path, bytesAt: header.columns[0]!.buffers.bytes!.offset };
}

/**
 * A provider over the cache file with page reads on for any size, counting whole-column loads and
 * page reads; `textLengths`, `textUnits` and `textEquals` pass the cache's answers without text on too,
 * `textScanPages` its whole-column scans (counted in `passes`).
 */
export function countingProvider(
  path: string,
  opts: { textLengths?: boolean; textUnits?: boolean; textEquals?: boolean; textScanPages?: boolean } = {},
) {
  const opened = openCache(path, 'k');
  if (!opened.ok) throw new Error(opened.reason);
  opened.reader.lazyMinBytes = 0;
  const ds = datasetFromCache(opened.reader);
  const p = {
    meta: ds.meta,
    wholeLoads: 0,
    pageReads: 0,
    passes: 0,
    loadColumn: (name: string) => {
      p.wholeLoads++;
      return ds.loadColumn(name);
    },
    loadRows: (name: string, start: number, end: number, reuse?: boolean) => {
      p.pageReads++;
      return ds.loadRows!(name, start, end, reuse);
    },
    ...(opts.textLengths ? { textLengths: ds.textLengths! } : {}),
    ...(opts.textUnits ? { textUnits: ds.textUnits! } : {}),
    ...(opts.textEquals ? { textEquals: ds.textEquals! } : {}),
    ...(opts.textScanPages
      ? {
          textScanPages: (name: string, req: TextScanRequest, pageRows: number) => {
            p.passes++;
            return ds.textScanPages!(name, req, pageRows);
          },
        }
      : {}),
  };
  return {
    p: p as TableProvider & { wholeLoads: number; pageReads: number; passes: number },
    close: () => ds.close(),
  };
}
