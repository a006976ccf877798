// A table's whole number column with missing values is summed, counted and searched for its
// extremes in place on its first reduction, and those answers kept for the session
// (prelude/series/fastReduce.ts sumInPlace, extremeInPlace); after a packed copy exists (a median,
// a variance made it) the reductions read that copy. Every order of first touches must give exactly
// what a plain-array copy of the table gives (the per-value code): -0 against 0 at the extremes,
// NaN, nulls, no value at all, infinities, a column's first rows, filtered and ordered views. Each
// sequence runs on tables of its own, so its first expression is each column's first touch in the
// session.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ColumnarTable } from '../../../../schema/columnar.js';
import { columnar, f64 } from '../fixture.js';
import { createHarness, type Harness } from '../harness.js';
import { differentialHelpers, diffRuns, install } from './differentialRuns.js';

const VALUES: Record<string, Array<number | null>> = {
  zeros: [null, -0, 0, Number.NaN, -0, null, 0],
  zeroFirst: [0, -0, null],
  negZeroFirst: [-0, 0, null, -0],
  none: [null, null],
  nanOnly: [Number.NaN, Number.NaN, null],
  wide: [3, null, -1.5, 1e308, 1e308, -Infinity, Infinity, Number.NaN, 2],
  large: Array.from({ length: 3000 }, (_, i) =>
    i % 7 === 0 ? null : i % 11 === 0 ? Number.NaN : i % 13 === 0 ? -0 : ((i * 37) % 101) / 4 - 10,
  ),
};

/** The orders of first touches: one list of expressions per sequence, run in that order. */
const SEQUENCES: string[][] = [
  ['(X) => X.V.sum()', '(X) => X.V.mean()', '(X) => X.V.min()', '(X) => X.V.max()', '(X) => X.V.count()'],
  ['(X) => X.V.max()', '(X) => X.V.min()', '(X) => X.V.count()', '(X) => X.V.sum()', '(X) => X.V.mean()'],
  ['(X) => X.V.count()', '(X) => X.V.mean()', '(X) => X.V.sum()', '(X) => X.V.max()', '(X) => X.V.median()'],
  // a packed copy first: the reductions after it read the copy
  ['(X) => X.V.median()', '(X) => X.V.sum()', '(X) => X.V.max()', '(X) => X.V.min()', '(X) => X.V.count()'],
  ['(X) => X.V.std()', '(X) => X.V.mean()', '(X) => X.V.min()'],
  // the first rows of a column (the same values array, fewer rows), then the whole column
  [
    '(X) => [X.V.head(3).sum(), X.V.head(3).max(), X.V.head(3).count(), X.V.head(2).min(), X.V.head(2).mean()]',
    '(X) => [X.slice(0, 2).V.sum(), X.slice(1).V.max(), X.V.sum(), X.V.max(), X.V.count()]',
    '(X) => [X.V.head(3).sum(), X.V.head(3).max(), X.V.head(1).count(), X.V.sum(), X.V.min()]',
  ],
  // filtered and ordered views of the column, then the column, then again
  [
    "(X) => { const F = X.orderby(aq.desc('V')); return [F.V.sum(), F.V.max(), F.V.min(), F.V.count()]; }",
    '(X) => [X.V.sum(), X.V.sum(), X.V.mean(), X.V.max(), X.V.max(), X.V.min(), X.V.count()]',
    '(X) => { const F = X.filter((d) => d.V !== null); return [F.V.sum(), F.V.max(), X.V.sum(), X.V.min()]; }',
  ],
];

const tableName = (seq: number, values: string): string => `s${seq}_${values}`;

const TABLES: ColumnarTable[] = SEQUENCES.flatMap((_, seq) =>
  Object.entries(VALUES).map(([values, v]) => ({
    ...columnar(tableName(seq, values), { V: f64(v), W: f64(v.map((x) => (x === null ? 1 : null))) }),
  })),
);

const DUMP = 'var __dump = (x) => __ser(x);';

let h: Harness;
beforeAll(() => {
  h = createHarness({ tables: TABLES });
});
afterAll(() => h.dispose());

describe("a column's first reductions, in place and kept", () => {
  test.each(SEQUENCES.map((exprs, seq) => [seq, exprs] as const))(
    'sequence %i gives the per-value answers at every step',
    async (seq, exprs) => {
      await install(
        h,
        differentialHelpers(
          Object.keys(VALUES).map((v) => tableName(seq, v)),
          DUMP,
        ),
      );
      expect(await diffRuns(h, exprs)).toEqual([]);
    },
    60_000,
  );
});
