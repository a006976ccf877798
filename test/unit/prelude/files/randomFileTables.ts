// Random tables for the file writers' differential tests (parquetWriter, csvWriter): host columns
// (dictionary codes, float64 + validity, UTF-8 whole or in pages, booleans: the typed paths) and
// plain array columns of any JS values (the values path), seen through random filters and orders.
import fc from 'fast-check';
import { BitSet, ColumnTable } from 'arquero';
import type { ColumnData } from '../../../../schema/columnar.js';
import { hostTables } from '../../../../prelude/data/hostTables.js';
import { bool, columnar, dict, utf8 } from '../fixture.js';

const TEXT = [
  '',
  'a',
  'Company LLC',
  'é',
  '日本',
  '😀 𝒳',
  'line\r\nbreak',
  'tab\tand "quotes", commas',
  'null',
  ' lead',
];
const DAY = 86_400_000;

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 4 });
const float = (values: Array<number | null>, type: 'number' | 'integer' | 'date'): ColumnData => ({
  kind: 'float64',
  type,
  values: Float64Array.from(values, (v) => v ?? 0),
  valid: Uint8Array.from(values, (v) => (v === null ? 0 : 1)),
});

/** Any JS value a derived column may hold (mixed on purpose). */
const anyValue = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.string({ unit: 'binary' }),
  fc.boolean(),
  fc.date({ noInvalidDate: false }),
  fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }),
);

/** A plain-array column of one kind (or mixed), as derive() or aq.table() would make. */
const plainColumn = (n: number) =>
  fc.oneof(
    fc.array(maybe(fc.oneof(fc.integer(), fc.constantFrom(2 ** 53 - 1, -(2 ** 53 - 1), 0))), {
      minLength: n,
      maxLength: n,
    }),
    fc.array(maybe(fc.oneof(fc.integer(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }))), {
      minLength: n,
      maxLength: n,
    }),
    fc.array(maybe(fc.oneof(fc.double(), fc.constantFrom(-0, Number.NaN, Infinity, 0.1))), {
      minLength: n,
      maxLength: n,
    }),
    fc.array(maybe(fc.date({ min: new Date(-5e12), max: new Date(5e12), noInvalidDate: false })), {
      minLength: n,
      maxLength: n,
    }),
    fc.array(maybe(fc.boolean()), { minLength: n, maxLength: n }),
    fc.array(maybe(fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom(...TEXT))), { minLength: n, maxLength: n }),
    fc.array(anyValue, { minLength: n, maxLength: n }),
    fc.constant(Array.from({ length: n }, (_, i) => (i % 2 ? null : undefined))),
  );

/** n rows of host columns + plain columns, a filter mask, an order, a row-group size. */
export const caseArb = fc.integer({ min: 0, max: 70 }).chain((n) =>
  fc.record({
    n: fc.constant(n),
    S: fc.array(maybe(fc.constantFrom(...TEXT)), { minLength: n, maxLength: n }),
    U: fc.array(maybe(fc.string({ unit: 'grapheme' })), { minLength: n, maxLength: n }),
    I: fc.array(maybe(fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(2 ** 53 - 1, -(2 ** 53 - 1)))), {
      minLength: n,
      maxLength: n,
    }),
    N: fc.array(maybe(fc.oneof(fc.double(), fc.integer(), fc.constantFrom(-0, Number.NaN))), {
      minLength: n,
      maxLength: n,
    }),
    D: fc.array(maybe(fc.integer({ min: -40_000, max: 40_000 }).map((d) => d * DAY + (d % 2 ? 1234 : -0.75))), {
      minLength: n,
      maxLength: n,
    }), // fractional ms truncate, as Date does
    B: fc.array(maybe(fc.boolean()), { minLength: n, maxLength: n }),
    P: plainColumn(n),
    Q: plainColumn(n),
    mask: fc.option(fc.array(fc.boolean(), { minLength: n, maxLength: n }), { nil: null }),
    order: fc.option(fc.array(fc.double({ noNaN: true }), { minLength: n, maxLength: n }), { nil: null }),
    groupRows: fc.constantFrom(1, 3, 8, 100_000),
    paged: fc.boolean(),
  }),
);

export type Case = fc.Arbitrary<unknown> extends never ? never : ReturnType<typeof caseArb.generate>['value'];

/** The table of a case: host columns through hostTables (LazyColumns), plain arrays beside them. */
export function tableOf(c: Case): ColumnTable {
  const host = columnar('h', {
    S: dict(c.S),
    U: utf8(c.U),
    I: float(c.I, 'integer'),
    N: float(c.N, 'number'),
    D: float(c.D, 'date'),
    B: bool(c.B),
  });
  const data = (col: string) => host.columns.find((x) => x.name === col)!.data;
  // paged: the utf8 column is read in pages of rows (bridge.fetchColumnRange), as long text is
  const fetchRange = (_t: string, col: string, start: number, end: number): ColumnData => {
    const d = data(col) as Extract<ColumnData, { kind: 'utf8' }>;
    const base = d.offsets[start]!;
    return {
      kind: 'utf8',
      type: 'string',
      bytes: d.bytes.slice(base, d.offsets[end]),
      offsets: d.offsets.slice(start, end + 1).map((o) => o - base),
      valid: d.valid.slice(start, end),
    };
  };
  const metas = [
    { name: 'h', numRows: c.n, columns: host.columns.map(({ name, type, kind }) => ({ name, type, kind })) },
  ];
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
