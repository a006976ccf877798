/**
 * Reductions of `s.fillna(value)` while it is still a pending chain of that one step
 * (numberChain.ts fillOnly): read from the column in place instead of filling a block buffer per
 * 2,048 values and then reducing it. Each gives what the chain's reduction gives, bit for bit: the
 * same additions in the same position order (a missing or NaN value counts as `value`), or, where
 * the order cannot change the answer, the column's packed present values (fastReduce.ts dense).
 * `value` is never NaN (fillna only chains a number that is not NaN), so every position is present.
 */
import type { NumView } from './typed.js';

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
  let sum = 0;
  if (value === 0) {
    const xs = present();
    for (let i = 0; i < xs.length; i++) sum += xs[i]!;
    return [sum, n];
  }
  const { values, valid, rows } = base;
  if (!rows && valid === null)
    for (let i = 0; i < n; i++) {
      const x = values[i]!;
      sum += x === x ? x : value;
    }
  else
    for (let i = 0; i < n; i++) {
      const r = rows ? rows[i]! : i;
      const x = values[r]!;
      sum += (valid === null || valid[r] !== 0) && x === x ? x : value;
    }
  return [sum, n];
}

/** Sample variance of the filled values (ddof=1, the two passes of frame/aggFuncs.ts sampleVariance), null under two. */
export function filledVariance(f: Filled): number | null {
  const { base, value, n } = f;
  if (n < 2) return null;
  const { values, valid, rows } = base;
  const at = (i: number): number => {
    const r = rows ? rows[i]! : i;
    const x = values[r]!;
    return (valid === null || valid[r] !== 0) && x === x ? x : value;
  };
  let sum = 0;
  for (let i = 0; i < n; i++) sum += at(i);
  const mean = sum / n;
  let m2 = 0;
  for (let i = 0; i < n; i++) {
    const d = at(i) - mean;
    m2 += d * d;
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
