/**
 * Reductions of `s.fillna(value)` while it is still a pending chain of that one step
 * (numberChain.ts fillOnly): every reduction reads the column in place, instead of filling a block buffer per 2,048 values and then
 * reducing it. Each gives what the chain's reduction gives, bit for bit: the same additions in the
 * same position order (a missing or NaN value counts as `value`), or, where the order cannot change
 * the answer, the column's packed present values (fastReduce.ts dense).
 * `value` is never NaN (fillna only chains a number that is not NaN), so every position is present.
 */
import type { NumView } from './typed.js';
import { denseSum } from './denseSum.js';

/** A fill-only chain: its column, the fill value and the Series' length. */
export interface Filled {
  base: NumView;
  value: number;
  n: number;
}

/**
 * [sum, count] of the filled values. `present` (the column's present values in position order)
 * answers a fill of 0 or -0 without reading the column again: adding a zero changes no sum that
 * starts at +0 (it never becomes -0, and x + 0 is x for every other x).
 */
export function filledSumCount(f: Filled, present: () => Float64Array): [number, number] {
  const { base, value, n } = f;
  if (value === 0) return [denseSum(present()), n];
  let sum = 0;
  const { values, valid, rows } = base;
  // one loop per layout: no test of the layout per value
  if (rows)
    for (let i = 0; i < n; i++) {
      const r = rows[i]!;
      const x = values[r]!;
      sum += (valid === null || valid[r] !== 0) && x === x ? x : value;
    }
  else if (valid === null)
    for (let i = 0; i < n; i++) {
      const x = values[i]!;
      sum += x === x ? x : value;
    }
  else
    for (let i = 0; i < n; i++) {
      const x = values[i]!;
      sum += valid[i] !== 0 && x === x ? x : value;
    }
  return [sum, n];
}

/**
 * Sample variance of the filled values (ddof=1), null under two: the two passes of frame/aggFuncs.ts
 * sampleVariance (the sum as filledSumCount adds it, then the squared deviations in position order),
 * with no filled copy.
 */
export function filledVariance(f: Filled, present: () => Float64Array): number | null {
  const { base, value, n } = f;
  if (n < 2) return null;
  const mean = filledSumCount(f, present)[0] / n;
  const { values, valid, rows } = base;
  const dv = value - mean;
  const fill = dv * dv;
  let m2 = 0;
  if (rows)
    for (let i = 0; i < n; i++) {
      const r = rows[i]!;
      const x = values[r]!;
      const d = x - mean;
      m2 += (valid === null || valid[r] !== 0) && x === x ? d * d : fill;
    }
  else if (valid === null)
    for (let i = 0; i < n; i++) {
      const x = values[i]!;
      const d = x - mean;
      m2 += x === x ? d * d : fill;
    }
  else
    for (let i = 0; i < n; i++) {
      const x = values[i]!;
      const d = x - mean;
      m2 += valid[i] !== 0 && x === x ? d * d : fill;
    }
  return m2 / (n - 1);
}

/**
 * The smallest (sign -1) or largest (sign 1) filled value, from the extreme of the present values
 * (`extreme`, null when none) and the fill value when a position was filled. undefined when the two
 * are zeros of different signs: which comes first decides then, and the caller reads the chain.
 */
export function filledExtreme(
  f: Filled,
  presentCount: number,
  extreme: number | null,
  sign: 1 | -1,
): number | null | undefined {
  if (f.n === 0) return null;
  if (extreme === null) return f.value; // nothing present: every position holds the fill value
  if (presentCount === f.n) return extreme;
  const v = f.value;
  if (v === extreme) return Object.is(v, extreme) ? v : undefined;
  return (sign > 0 ? v > extreme : v < extreme) ? v : extreme;
}
