// arqueroQuantiles (prelude/fast/rollupQuantile.ts), the fast rollup's op.median / op.quantile,
// against what it replaces: each group's valid values in scan order pushed to a list, sorted with
// Arquero's `ascending` comparator, then Arquero's `quantile`. The same double (Object.is: the sign
// of zero too) for every group, with nulls, NaN, both infinities, ties, groups on both sides of
// the typed-sort cut-off (16,384 values), scan orders, empty groups and any p; null (the caller
// sorts) as soon as a -0 is among the values.
import fc from 'fast-check';
import { ascending } from 'arquero/src/util/ascending.js';
import { quantile } from 'arquero/src/util/quantile.js';
import { describe, expect, test } from 'vitest';
import { arqueroQuantiles } from '../../../../prelude/fast/rollupQuantile.js';

const SEED = Number(process.env.FAST_CHECK_SEED ?? 20261126);

interface Case {
  values: Float64Array;
  ok: Uint8Array;
  keys: Uint32Array | null;
  size: number;
  order: Uint32Array | null;
}

/** Arquero's own reduction: a list per group in scan order, sorted by `ascending`, then quantile. */
function bySort(c: Case, p: number): unknown[] {
  const lists: number[][] = Array.from({ length: c.size }, () => []);
  const m = c.order ? c.order.length : c.values.length;
  for (let j = 0; j < m; j++) {
    const i = c.order ? c.order[j]! : j;
    const v = c.values[i]!;
    if (c.ok[i] && v === v) lists[c.keys ? c.keys[i]! : 0]!.push(v);
  }
  return lists.map((l) => quantile(l.sort(ascending), p));
}

const fast = (c: Case, p: number) =>
  arqueroQuantiles(c.values, c.ok, c.keys, c.size, c.order, c.order ? c.order.length : c.values.length, p);

const same = (a: unknown[] | null, b: unknown[]) => {
  expect(a).not.toBeNull();
  expect(a!.length).toBe(b.length);
  a!.forEach((x, g) => expect(Object.is(x, b[g]), `group ${g}: ${String(x)} vs ${String(b[g])}`).toBe(true));
};

/** A column of `n` values from `pick` (the index), every 7th null when `nulls`. */
function column(n: number, pick: (i: number) => number, nulls: boolean): { values: Float64Array; ok: Uint8Array } {
  const values = new Float64Array(n);
  const ok = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    values[i] = pick(i);
    ok[i] = nulls && i % 7 === 3 ? 0 : 1;
  }
  return { values, ok };
}

const value = fc.oneof(
  fc.constantFrom(0, 1, -1, 2.5, Infinity, -Infinity, NaN, 1e300, -1e-300),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.integer({ min: -3, max: 3 }),
);
const ps = fc.oneof(fc.double({ min: -0.5, max: 1.5, noNaN: true }), fc.constantFrom(0, 0.25, 0.5, 0.9, 1));

describe('arqueroQuantiles gives what Arquero sorting a list gives', () => {
  test('random columns: nulls, NaN, infinities, 1-4 groups, scan orders, any p', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(value, fc.boolean(), fc.integer({ min: 0, max: 3 })), { maxLength: 300 }),
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        ps,
        (rows, size, reorder, p) => {
          const values = Float64Array.from(rows, (r) => r[0]);
          const ok = Uint8Array.from(rows, (r) => (r[1] ? 1 : 0));
          const keys = size > 1 ? Uint32Array.from(rows, (r) => r[2] % size) : null;
          const order = reorder ? Uint32Array.from(rows.map((_, i) => rows.length - 1 - i).filter((i) => i % 3)) : null;
          const c = { values, ok, keys, size, order };
          same(fast(c, p), bySort(c, p));
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  test('groups past the typed-sort cut-off (selection) with ties, nulls and an order', () => {
    const n = 60_000;
    const { values, ok } = column(n, (i) => ((i * 7919) % 1000) * 12.5 - 3000 + (i % 11 === 0 ? Infinity : 0), true);
    const keys = Uint32Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 1 : 0)); // 48,000 and 12,000 values
    const order = Uint32Array.from({ length: n - 100 }, (_, j) => n - 1 - j);
    for (const p of [0, 0.1, 0.5, 0.75, 0.999, 1]) {
      same(fast({ values, ok, keys, size: 2, order: null }, p), bySort({ values, ok, keys, size: 2, order: null }, p));
      same(fast({ values, ok, keys: null, size: 1, order }, p), bySort({ values, ok, keys: null, size: 1, order }, p));
    }
  });

  test('a group with no valid value is undefined (Arquero NULL); an empty scan too', () => {
    const { values, ok } = column(40, (i) => (i % 2 ? NaN : i), false);
    const keys = Uint32Array.from({ length: 40 }, (_, i) => i % 2);
    expect(fast({ values, ok, keys, size: 3, order: null }, 0.5)).toEqual([19, undefined, undefined]);
    expect(fast({ values, ok, keys: null, size: 1, order: new Uint32Array(0) }, 0.5)).toEqual([undefined]);
  });

  test('-0 among the values: null, so the caller keeps the sort (scan order of -0 and 0)', () => {
    const { values, ok } = column(20_000, (i) => (i === 12_345 ? -0 : i % 3), false);
    expect(fast({ values, ok, keys: null, size: 1, order: null }, 0.5)).toBeNull();
    // also in a group, and in a scan order
    const keys = Uint32Array.from(values, (_, i) => i % 2);
    expect(fast({ values, ok, keys, size: 2, order: null }, 0.5)).toBeNull();
    expect(fast({ values, ok, keys: null, size: 1, order: Uint32Array.from(values, (_, i) => i) }, 0.5)).toBeNull();
    // a -0 that is null or filtered out does not count (a new column: one group over a whole
    // column reads its packed values kept by its values array, as a host column never changes)
    const other = column(20_000, (i) => (i === 12_345 ? -0 : i % 3), false);
    other.ok[12_345] = 0;
    same(fast({ values: other.values, ok: other.ok, keys: null, size: 1, order: null }, 0.5), [1]);
    const skipped = Uint32Array.from({ length: 19_999 }, (_, j) => (j < 12_345 ? j : j + 1));
    same(fast({ values, ok, keys: null, size: 1, order: skipped }, 0.5), [1]);
  });
});
