/**
 * value_counts' keys and counts (fastReduce.ts fastCountNumbers: keys in order of first
 * appearance, missing values and NaN one key) for a number column whose present values are
 * integers over a span no wider than the column is long, such as years: a count per value in an
 * Int32Array instead of a hash of each value's bits (219,590 years: ~0.5 ms against ~3 ms).
 * undefined otherwise (nothing present, a value that is not an integer, a -0, a wide span): the
 * caller then hashes.
 *
 * Each loop over the rows is a function that ends with the loop (docs/architecture.md, "Inside the
 * prelude"): with the code after it in the same function, V8 threw the loop's compile away on
 * every call (the scan and the count both ran interpreted, 2x the whole value_counts).
 */
import type { NumView } from './typed.js';

/** Keys by first appearance: `firsts[k]` the value (NaN for the missing key, at index `missing`, -1 when none), `counts[k]` its count. */
export interface NumberCounts {
  firsts: Float64Array;
  counts: Int32Array;
  missing: number;
}

export function smallIntCounts(v: NumView, n: number, dropna: boolean): NumberCounts | undefined {
  const { values, valid, rows } = v;
  SPAN[0] = Infinity;
  SPAN[1] = -Infinity;
  const bad = scanSpan(values, valid, rows, n, SPAN);
  const lo = SPAN[0]!;
  const hi = SPAN[1]!;
  // nothing present, a fraction, a value outside int32 (infinities too), a -0 or a wide span: hash
  if (bad !== 0 || !(lo <= hi && hi - lo <= n + 1024)) return undefined;
  const span = hi - lo + 1;
  const count = new Int32Array(span + 1); // the last slot counts the missing values
  const first = new Int32Array(span + 1); // the position where each slot's value first appears
  countSlots(values, valid, rows, n, lo, span, count, first);
  const used = dropna ? span : span + 1;
  const at = new Int32Array(usedSlots(count, used));
  firstPositions(count, first, used, at);
  at.sort(); // distinct positions: the keys' order of first appearance
  const firsts = new Float64Array(at.length);
  const counts = new Int32Array(at.length);
  const missing = keysAt(v, at, count, lo, span, firsts, counts);
  return { firsts, counts, missing };
}

// scanSpan's least and greatest present value
const SPAN = new Float64Array(2);

/**
 * span[0] and span[1] lowered and raised to the least and greatest present value; 1 when a present
 * value is not an int32 integer or is -0, else 0. The stores into `span` are inside the loop and
 * only a local is returned after it: a store after it, reached, threw the loop's compile away on
 * every call.
 */
function scanSpan(
  values: Float64Array,
  valid: Uint8Array | null,
  rows: Uint32Array | null,
  n: number,
  span: Float64Array,
): number {
  let lo = span[0]!;
  let hi = span[1]!;
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i]! : i;
    const x = values[r]!;
    if ((valid !== null && valid[r] === 0) || x !== x) continue;
    if (x < lo) span[0] = lo = x;
    if (x > hi) span[1] = hi = x;
    // -0 would need its own first occurrence as the key's value
    bad |= +((x | 0) !== x) | +(x === 0 && 1 / x < 0);
  }
  return bad;
}

/** count[x - lo] per present value x, count[span] per missing one; first[slot] = the position of its first. */
function countSlots(
  values: Float64Array,
  valid: Uint8Array | null,
  rows: Uint32Array | null,
  n: number,
  lo: number,
  span: number,
  count: Int32Array,
  first: Int32Array,
): void {
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i]! : i;
    const x = values[r]!;
    const slot = (valid !== null && valid[r] === 0) || x !== x ? span : x - lo;
    if (count[slot]++ === 0) first[slot] = i;
  }
}

/** How many of the first `used` slots counted something. */
function usedSlots(count: Int32Array, used: number): number {
  let m = 0;
  for (let s = 0; s < used; s++) if (count[s]! > 0) m++;
  return m;
}

/** The first positions of the slots that counted something, in slot order. */
function firstPositions(count: Int32Array, first: Int32Array, used: number, at: Int32Array): void {
  let m = 0;
  for (let s = 0; s < used; s++) if (count[s]! > 0) at[m++] = first[s]!;
}

/** firsts[k] and counts[k] of the key first seen at position at[k]; the index of the missing key, or -1. */
function keysAt(
  v: NumView,
  at: Int32Array,
  count: Int32Array,
  lo: number,
  span: number,
  firsts: Float64Array,
  counts: Int32Array,
): number {
  const { values, valid, rows } = v;
  let missing = -1;
  for (let k = 0; k < at.length; k++) {
    const r = rows ? rows[at[k]!]! : at[k]!;
    const x = values[r]!;
    if ((valid !== null && valid[r] === 0) || x !== x) {
      firsts[k] = NaN;
      counts[k] = count[span]!;
      missing = k;
    } else {
      firsts[k] = x;
      counts[k] = count[x - lo]!;
    }
  }
  return missing;
}
