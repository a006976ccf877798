// Differential tests of the columnar Parquet writer (prelude/files/parquet/): random tables made of
// host columns (dictionary codes, float64 + validity, UTF-8, booleans: the typed paths) and plain
// array columns of any JS values (the values path), seen through random filters and orders, written
// with small row groups (several per file) and read back with hyparquet: every visible value must
// come back (nulls, NaN, -0, dates before 1970, safe and 64-bit integers, unicode, CRLF).
import fc from 'fast-check';
import { ColumnTable } from 'arquero';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { describe, expect, test } from 'vitest';
import { textOf } from '../../../../prelude/files/columnsOf.js';
import { writeParquet } from '../../../../prelude/files/parquet/writeParquet.js';
import { caseArb, tableOf } from './randomFileTables.js';

const SEED = Number(process.env.FAST_CHECK_SEED ?? 20261123);

/** How a value reads back from Parquet, given the column's values (the kind rule of to_parquet). */
function expected(values: unknown[]): unknown[] {
  const present = values.filter((v) => v !== null && v !== undefined);
  const numbers = present.every((v) => typeof v === 'number' || typeof v === 'bigint');
  if (present.length === 0) return values.map(() => null);
  if (numbers && present.every((v) => typeof v === 'bigint' || (Number.isSafeInteger(v) && !Object.is(v, -0))))
    return values.map((v) => (v === null || v === undefined ? null : BigInt(v as number)));
  if (numbers) return values.map((v) => (v === null || v === undefined ? null : Number(v)));
  if (present.every((v) => v instanceof Date))
    return values.map((v) => (v instanceof Date && !Number.isNaN(v.getTime()) ? v.getTime() : null));
  if (present.every((v) => typeof v === 'boolean')) return values.map((v) => (typeof v === 'boolean' ? v : null));
  return values.map((v) => {
    const s = textOf(v);
    return s === null ? null : Buffer.from(s, 'utf8').toString('utf8');
  }); // lone surrogates -> U+FFFD
}

/** Dates compare by their instant, everything else as is (Object.is keeps -0 and NaN apart). */
const canon = (v: unknown) => (v instanceof Date ? v.getTime() : v);

async function readBack(bytes: Uint8Array): Promise<Record<string, unknown>[]> {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return (await parquetReadObjects({ file })) as Record<string, unknown>[];
}

describe('to_parquet writer: random tables read back by hyparquet', () => {
  test('every visible value of every column survives', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const t = tableOf(c);
        // both codecs: the default (uncompressed) and { compression: 'snappy' } (INT64 pages compressed)
        const bytes = writeParquet(t, c.groupRows, undefined, c.n % 2 === 0);
        const rows = await readBack(bytes);
        expect(rows.length).toBe(t.numRows());
        for (const name of t.columnNames()) {
          const want = expected(t.array(name) as unknown[]);
          const got = rows.map((r) => canon(r[name]));
          for (let i = 0; i < want.length; i++) {
            if (!Object.is(got[i], want[i]))
              throw new Error(`column ${name} row ${i}: wrote ${String(want[i])}, read ${String(got[i])}`);
          }
        }
        const meta = parquetMetadata(
          bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
        );
        expect(meta.created_by).toBe('sbirtools');
        expect(meta.row_groups.length).toBe(Math.ceil(t.numRows() / c.groupRows));
      }),
      { numRuns: 250, seed: SEED },
    );
  });

  test('statistics: null counts per chunk, min/max of numbers and dates', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const t = tableOf(c);
        const bytes = writeParquet(t, 100_000);
        const meta = parquetMetadata(
          bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
        );
        for (const chunk of meta.row_groups[0]?.columns ?? []) {
          const name = chunk.meta_data!.path_in_schema[0]!;
          const want = expected(t.array(name) as unknown[]);
          const st = chunk.meta_data!.statistics!;
          expect(Number(st.null_count), name).toBe(want.filter((v) => v === null).length);
          const present = want.filter((v) => v !== null) as Array<number | bigint>;
          if (st.min_value === undefined) continue;
          const min = present.reduce((a, b) => (b < a ? b : a));
          const max = present.reduce((a, b) => (b > a ? b : a));
          expect(canon(st.min_value), name).toEqual(typeof min === 'number' && min === 0 ? -0 : min);
          expect(canon(st.max_value), name).toEqual(typeof max === 'number' && max === 0 ? 0 : max);
        }
      }),
      { numRuns: 80, seed: SEED + 1 },
    );
  });

  test('edge tables: no columns, no rows, one row, all null, 250,001 rows in three row groups', async () => {
    expect(await readBack(writeParquet(new ColumnTable({}, [])))).toEqual([]);
    expect(await readBack(writeParquet(new ColumnTable({ a: [], b: [] } as never)))).toEqual([]);
    expect(await readBack(writeParquet(new ColumnTable({ a: [-0], d: [new Date(-1)], s: ['🚀'] } as never)))).toEqual([
      { a: -0, d: new Date(-1), s: '🚀' },
    ]);
    expect(
      await readBack(writeParquet(new ColumnTable({ a: [null, undefined], b: [undefined, null] } as never))),
    ).toEqual([
      { a: null, b: null },
      { a: null, b: null },
    ]);
    const n = 250_001;
    const big = new ColumnTable({
      i: Float64Array.from({ length: n }, (_, i) => i),
      s: Array.from({ length: n }, (_, i) => (i % 3 ? `r${i}` : null)),
    } as never);
    const bytes = writeParquet(big);
    const rows = await readBack(bytes);
    expect(parquetMetadata(bytes.buffer as ArrayBuffer).row_groups.map((g) => Number(g.num_rows))).toEqual([
      100_000, 100_000, 50_001,
    ]);
    expect(rows.length).toBe(n);
    expect(rows[n - 1]).toEqual({ i: BigInt(n - 1), s: `r${n - 1}` });
    expect(rows[150_000]).toEqual({ i: 150_000n, s: null });
  });

  test('layout: host dictionary text as RLE_DICTIONARY, pages UNCOMPRESSED (INT64 SNAPPY on request), TIMESTAMP in UTC', async () => {
    const c = fc.sample(
      caseArb.filter((x) => x.n > 20 && x.mask === null && x.S.some((v) => v !== null) && x.I.some((v) => v !== null)),
      { numRuns: 1, seed: SEED },
    )[0]!;
    const bytes = writeParquet(tableOf(c));
    const meta = parquetMetadata(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    );
    const chunk = (name: string) =>
      meta.row_groups[0]!.columns.find((x) => x.meta_data!.path_in_schema[0] === name)!.meta_data!;
    expect(chunk('S').encodings).toContain('RLE_DICTIONARY');
    expect(chunk('S').dictionary_page_offset).toBeDefined();
    expect(chunk('I')).toMatchObject({ type: 'INT64', codec: 'UNCOMPRESSED' });
    expect(chunk('U')).toMatchObject({ type: 'BYTE_ARRAY', codec: 'UNCOMPRESSED' });
    const snappy = writeParquet(tableOf(c), undefined, undefined, true);
    const sm = parquetMetadata(
      snappy.buffer.slice(snappy.byteOffset, snappy.byteOffset + snappy.byteLength) as ArrayBuffer,
    );
    const sChunk = (name: string) =>
      sm.row_groups[0]!.columns.find((x) => x.meta_data!.path_in_schema[0] === name)!.meta_data!;
    expect(sChunk('I')).toMatchObject({ type: 'INT64', codec: 'SNAPPY' });
    expect(sChunk('U').codec).toBe('UNCOMPRESSED');
    expect(await readBack(snappy)).toEqual(await readBack(bytes));
    expect(chunk('N').codec).toBe('UNCOMPRESSED');
    const d = meta.schema.find((x) => x.name === 'D')!;
    expect(d).toMatchObject({
      type: 'INT64',
      converted_type: 'TIMESTAMP_MILLIS',
      logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
    });
    expect(meta.schema.find((x) => x.name === 'U')).toMatchObject({
      type: 'BYTE_ARRAY',
      converted_type: 'UTF8',
      repetition_type: 'OPTIONAL',
    });
  });

  test('a size limit stops the writer before its buffer passes it', () => {
    const t = new ColumnTable({ s: Array.from({ length: 50_000 }, (_, i) => `row ${i}`) } as never);
    const seen: number[] = [];
    const limit = {
      bytes: 10_000,
      overLimit: (n: number) => {
        seen.push(n);
        throw new Error(`over by ${n}`);
      },
    };
    expect(() => writeParquet(t, 100_000, limit)).toThrow(/^over by \d+/);
    expect(seen[0]).toBeGreaterThan(10_000);
    expect(
      writeParquet(t, 100_000, {
        bytes: 10_000_000,
        overLimit: () => {
          throw new Error('no');
        },
      }).byteLength,
    ).toBeLessThan(10_000_000);
  });

  test('a BigInt beyond 64 bits is a RangeError naming the column', () => {
    expect(() => writeParquet(new ColumnTable({ big: [1n, 2n ** 64n] } as never))).toThrow(
      /column "big" holds 18446744073709551616, beyond a 64-bit integer/,
    );
  });
});
