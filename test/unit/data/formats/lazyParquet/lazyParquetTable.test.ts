// A Parquet table decoded a column at a time (src/data/formats/lazyParquet/) gives exactly the
// columns the eager decode gives (decodeInWorker: every column at load), for every column kind:
// nulls, NaN, dates before 1970, timestamps, booleans, a dictionary past the old 65,535-value cap,
// unique text, a DECIMAL left to hyparquet, INT64 within and past 2^53; in one piece and split over
// two workers by row group.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnData } from '../../../../../schema/columnar.js';
import { decodeInWorker } from '../../../../../src/data/formats/decodeInWorker.js';
import { DEFAULT_DECODE_CAPS } from '../../../../../src/data/formats/decodeCaps.js';
import { columnWorkers } from '../../../../../src/data/formats/lazyParquet/columnWorkers.js';
import { openingWorkers, openLazyParquet } from '../../../../../src/data/formats/lazyParquet/lazyParquetTable.js';
import { tableMemory } from '../../../../../src/data/formats/lazyParquet/tableMemory.js';
import { waitFor } from '../../../../helpers/waitFor.js';

const ROWS = 200_000;
let dir: string;
let path: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-lazy-'));
  path = join(dir, 'mixed.parquet');
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  await duck.run(`COPY (SELECT
      CASE WHEN i % 11 = 0 THEN NULL ELSE 'K' || (i % 7)::VARCHAR END AS few,
      CASE WHEN i % 13 = 0 THEN NULL ELSE 'C' || (hash(i) % 80000)::VARCHAR END AS many,
      CASE WHEN i % 17 = 0 THEN NULL ELSE 'text ' || i::VARCHAR || ' é' END AS uniq,
      CASE WHEN i % 5 = 0 THEN NULL WHEN i % 97 = 0 THEN 'nan'::DOUBLE ELSE i * 0.5 - 1000 END AS num,
      i::INTEGER AS int,
      i::BIGINT * 1000 AS big,
      CASE WHEN i = 5 THEN 9007199254740993::BIGINT ELSE i::BIGINT END AS huge,
      CASE WHEN i % 19 = 0 THEN NULL ELSE DATE '1960-01-01' + (i % 30000)::INTEGER END AS d,
      TIMESTAMP '2020-01-01' + to_seconds(i) AS ts,
      CASE WHEN i % 23 = 0 THEN NULL ELSE i % 3 = 0 END AS b,
      (i / 100)::DECIMAL(12, 2) AS dec
    FROM range(${ROWS}) r(i)) TO '${path}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 16384)`);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A column as comparable strings: its kind and type, and each typed array's bytes in hex (toEqual on typed arrays is slow). */
function dump(c: ColumnData): Record<string, string> {
  return Object.fromEntries(
    Object.entries(c).map(([k, v]) => [
      k,
      ArrayBuffer.isView(v)
        ? `${v.constructor.name}:${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`
        : String(v),
    ]),
  );
}

/** The eager decode's columns, by name. */
async function eager(): Promise<Map<string, ColumnData>> {
  const t = await decodeInWorker('t', new Uint8Array(readFileSync(path)), 'mixed.parquet', 'parquet');
  return new Map(t.columns.map((c) => [c.name, c.data]));
}

describe('lazy Parquet decode', () => {
  it.each([
    ['one piece per column', Infinity, Infinity],
    ['row groups split over two workers', 0, Infinity],
    ['split for the row count alone (small dictionary columns too)', Infinity, 0],
  ])(
    'gives the eager columns exactly: %s',
    async (_, splitMinBytes, splitMinRows) => {
      const want = await eager();
      const t = await openLazyParquet('t', path, 'mixed.parquet', undefined, { splitMinBytes, splitMinRows });
      expect(t.meta.numRows).toBe(ROWS);
      expect(t.meta.columns.map((c) => c.name)).toEqual([...want.keys()]);
      // an INT64 column past 2^53 is exact text: its type is settled (decoded) at open; one within 2^53 by its statistics
      expect(t.meta.columns.find((c) => c.name === 'huge')).toMatchObject({ type: 'string', kind: 'utf8' });
      expect(t.meta.columns.find((c) => c.name === 'big')).toMatchObject({ type: 'integer', kind: 'float64' });
      // a text column's kind is not known before it is decoded
      expect(t.meta.columns.filter((c) => c.kindPending).map((c) => c.name)).toEqual(['few', 'many', 'uniq']);
      for (const [name, data] of want) {
        const got = dump(t.loadColumn(name));
        const want1 = dump(data);
        // compared field by field, so a failure names the field rather than printing megabytes
        for (const k of Object.keys(want1)) expect(got[k] === want1[k], `${name}.${k}`).toBe(true);
        expect(Object.keys(got).sort(), name).toEqual(Object.keys(want1).sort());
        expect(t.columnKind(name)).toBe(data.kind);
      }
      // past the old 65,535-value cap, still dictionary codes
      const many = t.loadColumn('many');
      expect(many.kind).toBe('dict');
      expect(many.kind === 'dict' && many.dictOffsets.length - 1).toBeGreaterThan(65_535);
      expect(t.loadColumn('uniq').kind).toBe('utf8');
      // decoded once, then kept
      expect(t.loadColumn('num')).toBe(t.loadColumn('num'));
    },
    180_000,
  );

  it('idle workers end (their heaps with them); the next column starts them again and opens the file first', async () => {
    const want = await eager();
    const t = await openLazyParquet('t', path, 'mixed.parquet', undefined, { splitMinBytes: 0 });
    expect(dump(t.loadColumn('few'))).toEqual(dump(want.get('few')!));
    const pool = columnWorkers(DEFAULT_DECODE_CAPS.heapMb);
    await waitFor(() => pool.running === 0, { what: 'the idle column workers to end' });
    // both halves again, on fresh workers that open the file from its descriptor
    expect(dump(t.loadColumn('many'))).toEqual(dump(want.get('many')!));
    expect(pool.running).toBeGreaterThan(0);
  }, 120_000);

  it('a column taken whole (copied into an isolate) is not kept: asked again, it is decoded again, identical', async () => {
    // the reference: the same file opened again, each column decoded once and kept
    const ref = await openLazyParquet('ref', path, 'mixed.parquet', undefined, { splitMinBytes: 0 });
    const want = new Map(['few', 'uniq', 'num'].map((name) => [name, ref.loadColumn(name)]));
    const t = await openLazyParquet('t', path, 'mixed.parquet', undefined, { splitMinBytes: 0 });
    for (const name of want.keys()) {
      const first = t.takeColumn(name);
      expect(dump(first), name).toEqual(dump(want.get(name)!));
      // the kind stays known without decoding; the next take decodes a fresh, equal column
      expect(t.columnKind(name)).toBe(first.kind);
      const again = t.takeColumn(name);
      // not `.not.toBe(first)`: a passing not.toBe deep-compares the two (equal) columns to word
      // its message, which took 100 s of the test's 180 s bound on a loaded machine for 'uniq'
      expect(again === first, name).toBe(false);
      expect(dump(again), name).toEqual(dump(want.get(name)!));
    }
    // a kept column (loadColumn: read by the host) is handed over once, then forgotten, and stops
    // counting as the process's table memory (decoding it again is not counted twice)
    const kept = t.loadColumn('int');
    expect(t.loadColumn('int')).toBe(kept);
    tableMemory.grownBytes = 1e10;
    expect(t.takeColumn('int')).toBe(kept);
    expect(kept.kind === 'float64' && 1e10 - tableMemory.grownBytes).toBe(ROWS * 9);
    const fresh = t.loadColumn('int');
    expect(fresh === kept).toBe(false);
    expect(dump(fresh)).toEqual(dump(kept));
  }, 180_000);

  it('a file no column of which can split is checked in one worker; a column that splits later starts the second', async () => {
    const pool = columnWorkers(DEFAULT_DECODE_CAPS.heapMb);
    const want = await eager();
    await waitFor(() => pool.running === 0, { what: 'the idle column workers to end' });
    // every column below the split size (and no row count splits): one worker checks the file
    const small = await openLazyParquet('t', path, 'mixed.parquet', undefined, { splitMinBytes: Infinity });
    expect(pool.running).toBe(1);
    expect(dump(small.loadColumn('many'))).toEqual(dump(want.get('many')!));
    expect(pool.running).toBe(1);
    await waitFor(() => pool.running === 0, { what: 'the idle column workers to end' });
    // split for the row count: the second worker starts for the first such column (here at the
    // open, which decodes the INT64 column past 2^53 to settle its type), checks the file first,
    // and the halves join exactly
    const byRows = await openLazyParquet('t', path, 'mixed.parquet', undefined, {
      splitMinBytes: Infinity,
      splitMinRows: 0,
    });
    expect(dump(byRows.loadColumn('uniq'))).toEqual(dump(want.get('uniq')!));
    expect(pool.running).toBe(pool.width);
    await waitFor(() => pool.running === 0, { what: 'the idle column workers to end' });
    // a file large enough to split: both check it at open
    await openLazyParquet('t', path, 'mixed.parquet', undefined, { splitMinBytes: 0 });
    expect(pool.running).toBe(pool.width);
    // an Arrow file's columns are written whole by one worker: one checks it
    expect(openingWorkers(2, 1e9, 'arrow')).toBe(1);
    expect(openingWorkers(2, 1e9, 'parquet')).toBe(2);
    expect(openingWorkers(2, 1000, 'parquet')).toBe(1);
  }, 120_000);

  it('names a missing column', async () => {
    const t = await openLazyParquet('t', path, 'mixed.parquet');
    expect(() => t.loadColumn('nope')).toThrow(/has no column nope/);
    expect(() => t.takeColumn('nope')).toThrow(/has no column nope/);
  });
});
