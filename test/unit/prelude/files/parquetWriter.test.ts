// Differential tests of the columnar Parquet writer (prelude/files/parquet/): random tables made of
// host columns (dictionary codes, float64 + validity, UTF-8, booleans: the typed paths) and plain
// array columns of any JS values (the values path), seen through random filters and orders, written
// with small row groups (several per file) and read back with hyparquet: every visible value must
// come back (nulls, NaN, -0, dates before 1970, safe and 64-bit integers, unicode, CRLF).
import fc from 'fast-check';
import { BitSet, ColumnTable } from 'arquero';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { describe, expect, test } from 'vitest';
import type { ColumnData } from '../../../../schema/columnar.js';
import { hostTables } from '../../../../prelude/data/hostTables.js';
import { textOf } from '../../../../prelude/files/columnsOf.js';
import { writeParquet } from '../../../../prelude/files/parquet/writeParquet.js';
import { bool, columnar, dict, utf8 } from '../fixture.js';

const SEED = Number(process.env.FAST_CHECK_SEED ?? 20261123);
const TEXT = ['', 'a', 'Company LLC', 'é', '日本', '😀 𝒳', 'line\r\nbreak', 'tab\tand "quotes", commas', 'null', ' lead'];
const DAY = 86_400_000;

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 4 });
const float = (values: Array<number | null>, type: 'number' | 'integer' | 'date'): ColumnData => ({
  kind: 'float64', type, values: Float64Array.from(values, (v) => v ?? 0), valid: Uint8Array.from(values, (v) => (v === null ? 0 : 1)),
});

/** Any JS value a derived column may hold (mixed on purpose). */
const anyValue = fc.oneof(
  fc.constant(null), fc.constant(undefined), fc.integer(), fc.double(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.string({ unit: 'binary' }), fc.boolean(), fc.date({ noInvalidDate: false }), fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }),
);

/** A plain-array column of one kind (or mixed), as derive() or aq.table() would make. */
const plainColumn = (n: number) => fc.oneof(
  fc.array(maybe(fc.oneof(fc.integer(), fc.constantFrom(2 ** 53 - 1, -(2 ** 53 - 1), 0))), { minLength: n, maxLength: n }),
  fc.array(maybe(fc.oneof(fc.integer(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }))), { minLength: n, maxLength: n }),
  fc.array(maybe(fc.oneof(fc.double(), fc.constantFrom(-0, Number.NaN, Infinity, 0.1))), { minLength: n, maxLength: n }),
  fc.array(maybe(fc.date({ min: new Date(-5e12), max: new Date(5e12), noInvalidDate: false })), { minLength: n, maxLength: n }),
  fc.array(maybe(fc.boolean()), { minLength: n, maxLength: n }),
  fc.array(maybe(fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom(...TEXT))), { minLength: n, maxLength: n }),
  fc.array(anyValue, { minLength: n, maxLength: n }),
  fc.constant(Array.from({ length: n }, (_, i) => (i % 2 ? null : undefined))),
);

/** n rows of host columns + plain columns, a filter mask, an order, a row-group size. */
const caseArb = fc.integer({ min: 0, max: 70 }).chain((n) => fc.record({
  n: fc.constant(n),
  S: fc.array(maybe(fc.constantFrom(...TEXT)), { minLength: n, maxLength: n }),
  U: fc.array(maybe(fc.string({ unit: 'grapheme' })), { minLength: n, maxLength: n }),
  I: fc.array(maybe(fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(2 ** 53 - 1, -(2 ** 53 - 1)))), { minLength: n, maxLength: n }),
  N: fc.array(maybe(fc.oneof(fc.double(), fc.integer(), fc.constantFrom(-0, Number.NaN))), { minLength: n, maxLength: n }),
  D: fc.array(maybe(fc.integer({ min: -40_000, max: 40_000 }).map((d) => d * DAY + (d % 2 ? 1234 : -0.75))), { minLength: n, maxLength: n }), // fractional ms truncate, as Date does
  B: fc.array(maybe(fc.boolean()), { minLength: n, maxLength: n }),
  P: plainColumn(n),
  Q: plainColumn(n),
  mask: fc.option(fc.array(fc.boolean(), { minLength: n, maxLength: n }), { nil: null }),
  order: fc.option(fc.array(fc.double({ noNaN: true }), { minLength: n, maxLength: n }), { nil: null }),
  groupRows: fc.constantFrom(1, 3, 8, 100_000),
  paged: fc.boolean(),
}));

type Case = fc.Arbitrary<unknown> extends never ? never : ReturnType<typeof caseArb.generate>['value'];

/** The table of a case: host columns through hostTables (LazyColumns), plain arrays beside them. */
function tableOf(c: Case): ColumnTable {
  const host = columnar('h', {
    S: dict(c.S), U: utf8(c.U), I: float(c.I, 'integer'), N: float(c.N, 'number'), D: float(c.D, 'date'), B: bool(c.B),
  });
  const data = (col: string) => host.columns.find((x) => x.name === col)!.data;
  // paged: the utf8 column is read in pages of rows (bridge.fetchColumnRange), as long text is
  const fetchRange = (_t: string, col: string, start: number, end: number): ColumnData => {
    const d = data(col) as Extract<ColumnData, { kind: 'utf8' }>;
    const base = d.offsets[start]!;
    return { kind: 'utf8', type: 'string', bytes: d.bytes.slice(base, d.offsets[end]), offsets: d.offsets.slice(start, end + 1).map((o) => o - base), valid: d.valid.slice(start, end) };
  };
  const metas = [{ name: 'h', numRows: c.n, columns: host.columns.map(({ name, type, kind }) => ({ name, type, kind })) }];
  const h = hostTables(metas as never, (_t, col) => data(col), c.paged ? { fetchRange } : {}).h!;
  const cols: Record<string, unknown> = {};
  for (const name of h.columnNames()) cols[name] = h.column(name);
  cols.P = c.P;
  cols.Q = c.Q;
  let filter: BitSet | undefined;
  if (c.mask) {
    filter = new BitSet(c.n);
    c.mask.forEach((keep, i) => keep && filter!.set(i));
  }
  const rank = c.order;
  const order = rank ? (a: number, b: number) => rank[a]! - rank[b]! || a - b : undefined;
  return new ColumnTable(cols as never, [...h.columnNames(), 'P', 'Q'], filter, undefined, order as never);
}

/** How a value reads back from Parquet, given the column's values (the kind rule of to_parquet). */
function expected(values: unknown[]): unknown[] {
  const present = values.filter((v) => v !== null && v !== undefined);
  const numbers = present.every((v) => typeof v === 'number' || typeof v === 'bigint');
  if (present.length === 0) return values.map(() => null);
  if (numbers && present.every((v) => typeof v === 'bigint' || (Number.isSafeInteger(v) && !Object.is(v, -0)))) return values.map((v) => (v === null || v === undefined ? null : BigInt(v as number)));
  if (numbers) return values.map((v) => (v === null || v === undefined ? null : Number(v)));
  if (present.every((v) => v instanceof Date)) return values.map((v) => (v instanceof Date && !Number.isNaN(v.getTime()) ? v.getTime() : null));
  if (present.every((v) => typeof v === 'boolean')) return values.map((v) => (typeof v === 'boolean' ? v : null));
  return values.map((v) => { const s = textOf(v); return s === null ? null : Buffer.from(s, 'utf8').toString('utf8'); }); // lone surrogates -> U+FFFD
}

/** Dates compare by their instant, everything else as is (Object.is keeps -0 and NaN apart). */
const canon = (v: unknown) => (v instanceof Date ? v.getTime() : v);

async function readBack(bytes: Uint8Array): Promise<Record<string, unknown>[]> {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return (await parquetReadObjects({ file })) as Record<string, unknown>[];
}

describe('to_parquet writer: random tables read back by hyparquet', () => {
  test('every visible value of every column survives', async () => {
    await fc.assert(fc.asyncProperty(caseArb, async (c) => {
      const t = tableOf(c);
      const bytes = writeParquet(t, c.groupRows);
      const rows = await readBack(bytes);
      expect(rows.length).toBe(t.numRows());
      for (const name of t.columnNames()) {
        const want = expected(t.array(name) as unknown[]);
        const got = rows.map((r) => canon(r[name]));
        for (let i = 0; i < want.length; i++) {
          if (!Object.is(got[i], want[i])) throw new Error(`column ${name} row ${i}: wrote ${String(want[i])}, read ${String(got[i])}`);
        }
      }
      const meta = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
      expect(meta.created_by).toBe('sbirtools');
      expect(meta.row_groups.length).toBe(Math.ceil(t.numRows() / c.groupRows));
    }), { numRuns: 250, seed: SEED });
  });

  test('statistics: null counts per chunk, min/max of numbers and dates', async () => {
    await fc.assert(fc.asyncProperty(caseArb, async (c) => {
      const t = tableOf(c);
      const bytes = writeParquet(t, 100_000);
      const meta = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
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
    }), { numRuns: 80, seed: SEED + 1 });
  });

  test('edge tables: no columns, no rows, one row, all null, 250,001 rows in three row groups', async () => {
    expect(await readBack(writeParquet(new ColumnTable({}, [])))).toEqual([]);
    expect(await readBack(writeParquet(new ColumnTable({ a: [], b: [] } as never)))).toEqual([]);
    expect(await readBack(writeParquet(new ColumnTable({ a: [-0], d: [new Date(-1)], s: ['🚀'] } as never)))).toEqual([{ a: -0, d: new Date(-1), s: '🚀' }]);
    expect(await readBack(writeParquet(new ColumnTable({ a: [null, undefined], b: [undefined, null] } as never)))).toEqual([{ a: null, b: null }, { a: null, b: null }]);
    const n = 250_001;
    const big = new ColumnTable({ i: Float64Array.from({ length: n }, (_, i) => i), s: Array.from({ length: n }, (_, i) => (i % 3 ? `r${i}` : null)) } as never);
    const bytes = writeParquet(big);
    const rows = await readBack(bytes);
    expect(parquetMetadata(bytes.buffer as ArrayBuffer).row_groups.map((g) => Number(g.num_rows))).toEqual([100_000, 100_000, 50_001]);
    expect(rows.length).toBe(n);
    expect(rows[n - 1]).toEqual({ i: BigInt(n - 1), s: `r${n - 1}` });
    expect(rows[150_000]).toEqual({ i: 150_000n, s: null });
  });

  test('a BigInt beyond 64 bits is a RangeError naming the column', () => {
    expect(() => writeParquet(new ColumnTable({ big: [1n, 2n ** 64n] } as never))).toThrow(/column "big" holds 18446744073709551616, beyond a 64-bit integer/);
  });
});
