// The number sort hand-written sorts use (prelude/fast/numberSort.ts): whole numbers and hundredths
// as 32-bit integers, anything else (other fractions, wide spans, -0, infinities) through the
// positional radix order, and the session's kept sorts (sortMemo.ts). Whatever path it takes, the
// numbers must come out exactly as a stable `a - b` (or `b - a`) comparator sort leaves them, -0 and 0
// told apart; a kept answer must be one for exactly the same keys.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortNumbers } from '../../../../prelude/fast/numberSort.js';
import { HAND_SORT_MEMO_MIN_LENGTH } from '../../../../schema/handSort.js';

const SEED = Number(process.env.FAST_CHECK_SEED ?? 20261126);
const key = fc.oneof(
  fc.integer({ min: -5000, max: 5000 }).map((c) => c / 100),
  fc.integer({ min: 0, max: 2_000_000 }),
  fc.constantFrom(0, -0, Infinity, -Infinity, 0.1 + 0.2, 2 ** 40, -(2 ** 40), 5e-324),
  fc.double({ noNaN: true }),
);

/** What `xs.sort((a, b) => a - b)` (or `b - a`) leaves, each number as Object.is tells it. */
const reference = (xs: number[], desc: boolean) =>
  xs
    .slice()
    .sort((a, b) => {
      const d = desc ? b - a : a - b;
      return d === d ? d : 0;
    })
    .map(sig);
const sig = (v: number) => (Object.is(v, -0) ? '-0' : String(v));
const sorted = (xs: number[], desc: boolean) => [...sortNumbers(Float64Array.from(xs), desc)].map(sig);

describe('sortNumbers', () => {
  it('leaves the numbers as the stable comparator sort does, both ways, on every path', () => {
    const arrays = fc.oneof(
      fc.array(key, { maxLength: 300 }),
      // one kind only: hundredths or whole numbers take the integer path
      fc.array(
        fc.integer({ min: -10_000_000, max: 10_000_000 }).map((c) => c / 100),
        { maxLength: 300 },
      ),
      fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 }), { maxLength: 300 }),
    );
    fc.assert(
      fc.property(arrays, fc.boolean(), (xs, desc) => {
        expect(sorted(xs, desc)).toEqual(reference(xs, desc));
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('edges: spans past 2^32, only infinities, -0 among hundredths, one element', () => {
    const cases = [
      [0, 2 ** 32 + 0.5, 2 ** 32, 1],
      [2 ** 32, 0, 1, 2 ** 32 - 1],
      [Infinity, Infinity, -Infinity],
      [Infinity, Infinity],
      [0.25, -0, 0, -0.5, 0, -0],
      [7],
      [],
    ];
    for (const xs of cases)
      for (const desc of [false, true]) expect(sorted(xs, desc), JSON.stringify(xs)).toEqual(reference(xs, desc));
  });

  it('answers a kept sort only for the same keys, direction and -0s', () => {
    const n = HAND_SORT_MEMO_MIN_LENGTH + 5;
    const base = Array.from({ length: n }, (_, i) => ((i * 7919) % 30011) / 100);
    for (const xs of [base, base, base.map((v, i) => (i === n - 1 ? -1 : v)), base.map((v, i) => (i === 3 ? -0 : v))])
      for (const desc of [false, true, false]) expect(sorted(xs, desc)).toEqual(reference(xs, desc));
    const withZero = base.map((v, i) => (i === 3 ? 0 : v));
    const withNegativeZero = base.map((v, i) => (i === 3 ? -0 : v));
    expect(sorted(withZero, false)).toEqual(reference(withZero, false));
    expect(sorted(withNegativeZero, false)).toEqual(reference(withNegativeZero, false));
  });
});
