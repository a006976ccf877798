/**
 * Quantiles by selection instead of a full sort: the k-th smallest of a Float64Array found in
 * linear time (quickselect, median-of-three pivots, a typed sort of the part left when it does not
 * shrink). The answers are those of sorting a Float64Array and interpolating (quantileSorted): the
 * same numbers, and a zero has the sign it would have at that place of the sorted array (a typed
 * sort puts -0 before 0; comparisons cannot tell them apart, so it is counted afterwards).
 */

/** Below this many values a typed sort is as fast, and needs no care about -0. */
const SMALL = 64;

function swap(xs: Float64Array, i: number, j: number): void {
  const t = xs[i]!;
  xs[i] = xs[j]!;
  xs[j] = t;
}

/** Reorders xs[lo..hi] so that xs[k] is the value a sort would put there, smaller values left of it. */
function selectK(xs: Float64Array, k: number, lo: number, hi: number): void {
  let budget = 2 * Math.ceil(Math.log2(hi - lo + 2)) + 8;
  while (hi > lo) {
    if (hi - lo < SMALL || budget-- <= 0) {
      xs.subarray(lo, hi + 1).sort();
      return;
    }
    // median of three to xs[lo]
    const mid = (lo + hi) >>> 1;
    if (xs[mid]! < xs[lo]!) swap(xs, mid, lo);
    if (xs[hi]! < xs[lo]!) swap(xs, hi, lo);
    if (xs[hi]! < xs[mid]!) swap(xs, hi, mid);
    swap(xs, lo, mid);
    const pivot = xs[lo]!;
    let i = lo;
    let j = hi + 1;
    for (;;) {
      do i++;
      while (i <= hi && xs[i]! < pivot);
      do j--;
      while (xs[j]! > pivot);
      if (i >= j) break;
      swap(xs, i, j);
    }
    swap(xs, lo, j);
    if (j === k) return;
    if (j < k) lo = j + 1;
    else hi = j - 1;
  }
}

/** The sign a zero at sorted position `pos` would have: -0 when the position falls among the negative zeros. */
function signedZero(xs: Float64Array, pos: number): number {
  let below = 0;
  let negZero = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    if (x < 0) below++;
    else if (x === 0 && 1 / x < 0) negZero++;
  }
  return pos >= below && pos < below + negZero ? -0 : 0;
}

/**
 * The linear-interpolated quantiles `qs` (each 0..1) of the numbers in `xs` (no NaN), as
 * quantileSorted would give them over the sorted values; reorders `xs` (pass a copy). null for
 * each when `xs` is empty.
 */
export function selectQuantiles(xs: Float64Array, qs: readonly number[]): (number | null)[] {
  const n = xs.length;
  if (!n) return qs.map(() => null);
  if (n < SMALL) {
    xs.sort();
    return qs.map((q) => interpolate(xs[Math.floor((n - 1) * q)]!, xs[Math.ceil((n - 1) * q)]!, (n - 1) * q));
  }
  const order = qs.map((_, i) => i).sort((a, b) => qs[a]! - qs[b]!);
  const out = new Array<number | null>(qs.length);
  let from = 0;
  for (const at of order) {
    const pos = (n - 1) * qs[at]!;
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    // earlier selections left everything from `from` on at or above their value: select in that part
    selectK(xs, lo, from, n - 1);
    from = lo;
    let a = xs[lo]!;
    let b = a;
    if (hi !== lo) {
      b = xs[hi]!;
      for (let i = hi + 1; i < n; i++) if (xs[i]! < b) b = xs[i]!;
    }
    if (a === 0) a = signedZero(xs, lo);
    if (b === 0 && hi !== lo) b = signedZero(xs, hi);
    out[at] = interpolate(a, b, pos);
  }
  return out;
}

/** quantileSorted's formula for the values at floor(pos) and ceil(pos). */
function interpolate(a: number, b: number, pos: number): number {
  const lo = Math.floor(pos);
  return lo === Math.ceil(pos) ? a : a + (b - a) * (pos - lo);
}
