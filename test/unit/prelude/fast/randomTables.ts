// Random award_data-shaped tables for the fast-path differential tests: dictionary keys with nulls,
// duplicates, blanks and unicode (multi-byte, surrogate pairs, quotes and pipes), integers and
// dates (before 1970 too) with nulls, numbers with NaN, -0 and mixed integer/float values.
import fc from 'fast-check';
import type { ColumnData, ColumnarTable } from '../../../../schema/columnar.js';
import { columnar, dict } from '../fixture.js';

const KEYS = ['a', 'A', 'b', '', 'null', 'é', 'Ünïcødé', '😀', '𝒳y', 'a|b', 'x"|"y', 'Phase I', 'Phase II', ' a'];

function float(values: Array<number | null>, type: 'number' | 'integer' | 'date'): ColumnData {
  return {
    kind: 'float64',
    type,
    values: Float64Array.from(values, (v) => v ?? 0),
    valid: Uint8Array.from(values, (v) => (v === null ? 0 : 1)),
  };
}

const maybe = <T>(arb: fc.Arbitrary<T>, nullFreq: number) => fc.option(arb, { nil: null, freq: nullFreq });
const DAY = 86400000;

/** One row of the random table. */
const row = fc.record({
  K1: maybe(fc.constantFrom(...KEYS), 6),
  K2: maybe(fc.constantFrom('x', 'y', 'z', 'w'), 4),
  Y: maybe(fc.integer({ min: -3, max: 6 }), 5),
  D: maybe(
    fc.integer({ min: -800, max: 400 }).map((d) => d * DAY * 30),
    5,
  ),
  V: maybe(
    fc.oneof(
      fc.integer({ min: -5, max: 9 }),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      fc.constantFrom(-0, 0, Number.NaN, 0.1, 0.2),
    ),
    5,
  ),
  A: maybe(fc.constantFrom('x', 'y'), 1000), // K2-like, nearly never null: an all-null-free column
});

/** Tables of 0-60 rows; every third has 1,200-2,500 rows (enough for the top-n path). */
export const tableArb: fc.Arbitrary<ColumnarTable> = fc
  .oneof(
    { arbitrary: fc.array(row, { minLength: 0, maxLength: 60, size: 'max' }), weight: 2 },
    { arbitrary: fc.array(row, { minLength: 1200, maxLength: 2500 }), weight: 1 },
  )
  .map((rows) => build(rows));

/** One row of the tables (null = missing). */
export type Row = {
  K1: string | null;
  K2: string | null;
  Y: number | null;
  D: number | null;
  V: number | null;
  A: string | null;
};

/** Edge tables every run includes: empty, one row, every key and value missing, one huge group. */
export const EDGE_TABLES: ColumnarTable[] = [
  build([]),
  build([{ K1: '😀', K2: 'y', Y: -1, D: -86400000 * 365 * 20, V: -0, A: 'x' }]),
  build(Array.from({ length: 9 }, () => ({ K1: null, K2: null, Y: null, D: null, V: null, A: null }))),
  build(
    Array.from({ length: 1500 }, (_, i) => ({
      K1: 'a',
      K2: i % 7 ? 'x' : 'y',
      Y: i % 3,
      D: 0,
      V: [0, -0, Number.NaN, 1.5, -2, null, 7][(i * 5) % 7],
      A: 'x',
    })),
  ),
  // large enough for the typed top-n (prelude/fast/typedTop.ts): ties, nulls and NaN in every key
  build(
    Array.from({ length: 2000 }, (_, i) => ({
      K1: i % 13 === 0 ? null : KEYS[(i * 7) % KEYS.length],
      K2: ['x', 'y', 'z'][i % 3],
      Y: i % 11 === 0 ? null : (i * 3) % 5,
      D: i % 17 === 0 ? null : ((i * 11) % 9) * DAY,
      V: i % 19 === 0 ? null : i % 23 === 0 ? Number.NaN : ((i * 37) % 101) / 4 - 10,
      A: 'x',
    })),
  ),
  // the typed top-n's root starts as a null (the first 100 rows have no V, Y, D or K1) and values
  // displace it one by one: V positive, Y negative, so a value compares past the null's placeholder
  build(
    Array.from({ length: 1600 }, (_, i) => ({
      K1: i < 100 ? null : KEYS[(i * 5) % KEYS.length],
      K2: ['x', 'y'][i % 2],
      Y: i < 100 ? null : -((i * 7) % 13) - 1,
      D: i < 100 ? null : ((i * 3) % 50) * DAY,
      V: i < 100 ? null : i % 29 === 0 ? Number.NaN : 1 + ((i * 37) % 101) / 4,
      A: 'x',
    })),
  ),
  build(
    Array.from({ length: 40 }, (_, i) => ({
      K1: ['b', 'a'][i % 2],
      K2: 'x',
      Y: i % 4,
      D: null,
      V: [0, -0, 0, 3][i % 4],
      A: null,
    })),
  ),
  // a min or max met as 0 then -0 (or -0 then 0): the first met is the answer
  build([0, -0, 0, -0, 5, -0].map((v, i) => ({ K1: 'a', K2: 'x', Y: i % 2 ? 0 : -0, D: null, V: v, A: 'x' }))),
];

/** An award_data-shaped table of these rows (V is missing where K2 is 'w'). */
export function build(rows: Row[]): ColumnarTable {
  // an all-null group: rows whose K2 is 'w' have no V at all
  const V = rows.map((r) => (r.K2 === 'w' ? null : r.V));
  return columnar('award_data', {
    K1: dict(rows.map((r) => r.K1)),
    K2: dict(rows.map((r) => r.K2)),
    Y: float(
      rows.map((r) => r.Y),
      'integer',
    ),
    D: float(
      rows.map((r) => r.D),
      'date',
    ),
    V: float(V, 'number'),
    A: dict(rows.map((r) => r.A)),
  });
}
