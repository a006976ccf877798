// The radix order (prelude/fast/radixOrder.ts) that Series sorts and hand-written sorts share: on
// random float64 keys (duplicates, -0 and 0, infinities, subnormals, the largest magnitudes) it must
// give exactly the positions a stable comparator sort gives, ascending and descending.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { radixOrder } from '../../../../prelude/fast/radixOrder.js';

const SEED = Number(process.env.FAST_CHECK_SEED ?? 20261126);
const EDGES = [0, -0, 1, -1, Infinity, -Infinity, 5e-324, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 53, 0.1];
const key = fc.oneof(
  fc.constantFrom(...EDGES),
  fc.integer({ min: -50, max: 50 }),
  fc.double({ noNaN: true }),
  fc.integer({ min: 1980, max: 2026 }),
);

/** The stable order `(a, b) => a - b` (or `b - a`) gives: Array.prototype.sort is stable. */
const reference = (keys: number[], ascending: boolean) =>
  keys
    .map((_, i) => i)
    .sort((i, j) => {
      const d = ascending ? keys[i]! - keys[j]! : keys[j]! - keys[i]!;
      return d === d ? d : 0; // Infinity - Infinity: equal
    });

describe('radixOrder', () => {
  it('is the stable order of the comparator, both ways', () => {
    fc.assert(
      fc.property(fc.array(key, { maxLength: 300 }), fc.boolean(), (keys, ascending) => {
        expect([...radixOrder(Float64Array.from(keys), ascending)]).toEqual(reference(keys, ascending));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('keeps -0 and 0 in position order, and skips passes that every key shares', () => {
    expect([...radixOrder(Float64Array.of(3, -0, 1, 0, -0), true)]).toEqual([1, 3, 4, 2, 0]);
    expect([...radixOrder(Float64Array.of(0, -0, 0), false)]).toEqual([0, 1, 2]);
    const years = Float64Array.from({ length: 5000 }, (_, i) => 1980 + ((i * 7919) % 47));
    expect([...radixOrder(years, true)]).toEqual(reference([...years], true));
    expect([...radixOrder(new Float64Array(0), true)]).toEqual([]);
  });
});
