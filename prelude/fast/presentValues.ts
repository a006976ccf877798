/**
 * A number column's present values (not missing, not NaN) packed in row order into one
 * Float64Array, kept per column for the session (by its values array): the Series reductions
 * (series/fastReduce.ts) and the one-group rollup median/quantile (rollupQuantile.ts) read the same
 * copy. Shared: never hand it out or write into it.
 */
import { SafeMap, SafeWeakMap } from '../intrinsics.js';

/** Dense present values of a whole column, by its Float64Array. */
const packed = new SafeWeakMap<Float64Array, Float64Array>();

/**
 * The present, non-NaN values of `values[0..n)` (`valid` null: all present; `rows`: those rows in
 * that order, not kept), packed; a column without a missing value is its own array.
 */
export function packedPresent(
  values: Float64Array,
  valid: Uint8Array | null,
  rows: Uint32Array | null,
  n: number,
): Float64Array {
  if (!rows) {
    const hit = packed.get(values);
    if (hit) return hit;
    if (values.length === n && allPresent(values, valid)) {
      // nothing missing: the values themselves (a computed result's own array, or a host column's
      // storage; neither is ever written), not a packed copy of 8 bytes a row on the first touch
      packed.set(values, values);
      kept.set(values, true);
      return values;
    }
  }
  const out = new Float64Array(n);
  const k = rows ? packRows(values, valid, rows, n, out) : packAll(values, valid, n, out);
  const d = k === n ? out : out.slice(0, k);
  if (!rows) {
    packed.set(values, d);
    kept.set(d, true);
  }
  return d;
}

/**
 * The k-th smallest values (by k) found so far in a kept packed array, by that array (undefined for
 * any other array): a kept array is never written, so a rank selected once (frame/selectQuantile.ts
 * kthValues: a median, a quantile, describe) holds for the session and a warm median reads it.
 */
export function keptRanks(xs: Float64Array): Map<number, number> | undefined {
  if (!kept.has(xs)) return undefined;
  let ranks = kthKept.get(xs);
  if (!ranks) kthKept.set(xs, (ranks = new SafeMap<number, number>()));
  return ranks;
}

/** The packed arrays kept above (the values themselves or their copies). */
const kept = new SafeWeakMap<Float64Array, true>();
const kthKept = new SafeWeakMap<Float64Array, Map<number, number>>();

// The packing loops end their functions (docs/architecture.md, "Inside the prelude"): a filtered
// Series' values are packed on every call, and with code after the loop V8 threw its compile away
// on every call. Each returns how many values it packed into `out`.

function packRows(
  values: Float64Array,
  valid: Uint8Array | null,
  rows: Uint32Array,
  n: number,
  out: Float64Array,
): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    const x = values[r]!;
    if ((valid === null || valid[r] === 1) && x === x) out[k++] = x;
  }
  return k;
}

function packAll(values: Float64Array, valid: Uint8Array | null, n: number, out: Float64Array): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    const x = values[i]!;
    if ((valid === null || valid[i] === 1) && x === x) out[k++] = x;
  }
  return k;
}

/**
 * Record that a computed result's `values` (all present: not one missing or NaN, and never written
 * after) are their own packed copy, as packedPresent concludes by its scan, and that `sum` is their
 * sum in index order from 0 (what denseSum adds: keptSum answers it).
 */
export function keepAllPresent(values: Float64Array, sum: number): void {
  packed.set(values, values);
  kept.set(values, true);
  sums.set(values, sum);
}

const sums = new SafeWeakMap<Float64Array, number>();

/** The sum keepAllPresent recorded for these packed values, or undefined. */
export function keptSum(xs: Float64Array): number | undefined {
  return sums.get(xs);
}

/** True when `values` has its packed copy kept already. */
export function hasPacked(values: Float64Array): boolean {
  return packed.has(values);
}

/** True when no value is missing (valid[i] 0) or NaN; stops at the first one that is. */
function allPresent(xs: Float64Array, valid: Uint8Array | null): boolean {
  if (valid === null) {
    for (let i = 0; i < xs.length; i++) if (xs[i] !== xs[i]) return false;
    return true;
  }
  for (let i = 0; i < xs.length; i++) if (valid[i] !== 1 || xs[i] !== xs[i]) return false;
  return true;
}
