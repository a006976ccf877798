// selectQuantiles (prelude/frame/selectQuantile.ts), the linear-time quantiles behind median,
// quantile and agg's median, against the definition they replace: sort a Float64Array (which puts
// -0 before 0) and interpolate linearly. Same numbers and the same sign of zero, on random arrays
// with many ties, both zeros, infinities, every size around the small-array cut-off and every q.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { quantileSorted } from '../../../../prelude/frame/aggFuncs.js';
import { selectQuantiles } from '../../../../prelude/frame/selectQuantile.js';

const SEED = Number(process.env.FAST_CHECK_SEED ?? 20261125);

/** The quantiles by sorting, as describe and the per-value paths computed them before. */
const bySort = (xs: Float64Array, qs: number[]) => {
  const sorted = Array.from(xs.slice().sort());
  return qs.map((q) => quantileSorted(sorted, q));
};

const value = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 2.5, Infinity, -Infinity, 1e300, -1e-300),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.integer({ min: -3, max: 3 }),
);

describe('selectQuantiles gives what sorting and interpolating gives', () => {
  test('random arrays, sizes 0-400, any q (Object.is: -0 apart from 0)', () => {
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 400 }),
        fc.array(fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 0.25, 0.5, 1)), {
          minLength: 1,
          maxLength: 5,
        }),
        (vals, qs) => {
          const xs = Float64Array.from(vals);
          const got = selectQuantiles(xs.slice(), qs);
          const want = bySort(xs, qs);
          expect(got.map((v) => (Object.is(v, -0) ? '-0' : v))).toEqual(want.map((v) => (Object.is(v, -0) ? '-0' : v)));
        },
      ),
      { seed: SEED, numRuns: 400 },
    );
  });
  test('only zeros of both signs: the sign a sorted array has at each exact position', () => {
    for (const n of [63, 64, 65, 200, 1001]) {
      const xs = Float64Array.from({ length: n }, (_, i) => (i % 3 === 0 ? -0 : 0));
      const qs = [0, 0.1, 0.3, 0.5, 1, 1 / (n - 1), 2 / (n - 1)];
      const got = selectQuantiles(xs.slice(), qs).map((v) => Object.is(v, -0));
      expect(got).toEqual(bySort(xs, qs).map((v) => Object.is(v, -0)));
      expect(got[0]).toBe(true); // the smallest is -0
    }
  });
  test('empty input gives null for each q; sorted and reversed input (no quadratic blow-up) agree', () => {
    expect(selectQuantiles(new Float64Array(0), [0.5, 0.1])).toEqual([null, null]);
    const up = Float64Array.from({ length: 50_000 }, (_, i) => i);
    const down = up.slice().reverse();
    const same = Float64Array.from({ length: 50_000 }, () => 7);
    for (const xs of [up, down, same])
      expect(selectQuantiles(xs.slice(), [0.5, 0.9, 0.01])).toEqual(bySort(xs, [0.5, 0.9, 0.01]));
  });
});
