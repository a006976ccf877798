/**
 * `op.median` / `op.quantile` of a host number column in the fast rollup, per group, without
 * Arquero's boxed list and comparator sort: each group's valid values go into one Float64Array
 * (grouped by a counting pass), the two order statistics Arquero's formula reads are selected
 * (frame/selectQuantile.ts), and the formula is Arquero's own (util/quantile.js), so every answer
 * is the same double. Values with a -0 are left to the sort: its comparator keeps -0 and 0 in scan
 * order where a typed order puts -0 first, and Arquero's formula can tell them apart.
 */
import { kthValues } from '../frame/selectQuantile.js';
import { SafeWeakMap } from '../intrinsics.js';
import { packedPresent } from './presentValues.js';

/**
 * Below this many values a group's typed sort (native, in place) is cheaper than the selection,
 * whose histograms cost a fixed 2 x 65,537 counters (many small groups must not pay them each).
 */
const SMALL = 16384;

/**
 * Arquero's quantile `p` of each group's valid (non-null, non-NaN) values, in scan order `order`
 * (or rows 0..m-1), grouped by `keys` (or one group); null when some value is -0 (the caller
 * sorts), undefined for a group with no value (Arquero's NULL).
 */
export function arqueroQuantiles(
  values: Float64Array,
  ok: Uint8Array,
  keys: Uint32Array | null,
  size: number,
  order: Uint32Array | null,
  m: number,
  p: number,
): unknown[] | null {
  if (!keys && !order && m === values.length) {
    // one group over every row: the column's packed present values, kept for the session
    // (fast/presentValues.ts, shared with the Series reductions), read in place
    const xs = packedPresent(values, ok, null, m);
    if (hasNegativeZero(xs)) return null;
    return [quantileOf(xs.length < SMALL ? xs.slice() : xs, p)];
  }
  // counting pass: how many valid values each group holds (and whether any is -0)
  const start = new Int32Array(size + 1);
  for (let j = 0; j < m; j++) {
    const i = order ? order[j]! : j;
    const v = values[i]!;
    if (!ok[i] || v !== v) continue;
    if (v === 0 && 1 / v < 0) return null;
    start[(keys ? keys[i]! : 0) + 1]!++;
  }
  for (let g = 0; g < size; g++) start[g + 1] += start[g]!;
  const all = new Float64Array(start[size]!);
  const at = start.slice(0, size);
  for (let j = 0; j < m; j++) {
    const i = order ? order[j]! : j;
    const v = values[i]!;
    if (ok[i] && v === v) all[at[keys ? keys[i]! : 0]!++] = v;
  }
  const out = new Array<unknown>(size);
  for (let g = 0; g < size; g++) out[g] = quantileOf(all.subarray(start[g]!, start[g + 1]!), p);
  return out;
}

/** Whether a packed column holds a -0 (kept per packed array: one scan per column and session). */
const negativeZero = new SafeWeakMap<Float64Array, boolean>();

function hasNegativeZero(xs: Float64Array): boolean {
  let has = negativeZero.get(xs);
  if (has === undefined) {
    has = false;
    for (let i = 0; i < xs.length; i++)
      if (xs[i] === 0 && 1 / xs[i]! < 0) {
        has = true;
        break;
      }
    negativeZero.set(xs, has);
  }
  return has;
}

/** util/quantile.js over the sorted order of `xs` (may reorder `xs` when shorter than SMALL), reading only the ranks it needs. */
function quantileOf(xs: Float64Array, p: number): number | undefined {
  const n = xs.length;
  if (!n) return undefined;
  const i = (n - 1) * p;
  const i0 = Math.floor(i);
  // the ranks the formula reads: the smallest, the largest, or i0 and i0 + 1
  const ks = p <= 0 || n < 2 ? [0] : p >= 1 ? [n - 1] : [i0, i0 + 1];
  let kth: (k: number) => number;
  if (n < SMALL) {
    xs.sort();
    kth = (k) => xs[k]!;
  } else {
    const found = kthValues(xs, ks);
    kth = (k) => found.get(k)!;
  }
  if (p <= 0 || n < 2) return kth(0);
  if (p >= 1) return kth(n - 1);
  const v0 = kth(i0);
  return v0 + (kth(i0 + 1) - v0) * (i - i0);
}
