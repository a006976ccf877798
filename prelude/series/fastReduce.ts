/**
 * Reductions over a Series' typed arrays (typed.ts): one loop over a Float64Array or a mask's bytes,
 * no array of values built first. Each gives exactly what the per-value path in aggregates.ts
 * gives (same order of additions, so the same floating-point result), or undefined when the Series
 * has no numeric view and the caller must take that path.
 */
import { sampleVariance } from '../frame/aggFuncs.js';
import type { Series } from './Series.js';
import {
  chainBlocks,
  chainExtreme,
  chainPresent,
  chainSumCount,
  fillOnly,
  pendingChain,
  chainOfValues,
} from './numberChain.js';
import { SafeWeakMap } from '../intrinsics.js';
import { smallIntCounts, type NumberCounts } from './smallIntCounts.js';
import { filledExtreme, filledSumCount, filledVariance } from './fillReduce.js';
import { numView, typedOf, type NumView } from './typed.js';
import { NumberKeys } from '../fast/numberKeys.js';
import { denseSum } from './denseSum.js';
import { hasPacked, packedPresent } from '../fast/presentValues.js';
import { keptFilterOfRows } from '../frame/keptFilterRows.js';

/**
 * The present, non-NaN values of a numeric view in order, packed into a Float64Array: the loops
 * below then run over one dense array (no validity test, no row map, no callback per value).
 * Shared for a whole column (fast/presentValues.ts): never hand it out or sort it in place.
 */
function dense(v: NumView, n: number): Float64Array {
  return packedPresent(v.values, v.valid, v.rows, n);
}

/**
 * [sum, count] of the present values of a storage-order view with missing values, read in place:
 * the same additions in the same order as over dense(), without packing a copy. A computed view's
 * copy would serve this call only; a table's whole column is read so on its first reduction (one
 * loop and no new array, where packing was two cold loops and two arrays of its size in a fresh
 * session's first run: docs/benchmarks.md "A fresh session's first run: the floor split (session
 * 18)"), and its [sum, count] kept for the session (the column's values are never written, as
 * fast/presentValues.ts relies on too). undefined for a view with a row map or no missing values,
 * and for a column whose packed copy is kept already (a count, a median made it): dense() then.
 */
function sumInPlace(s: Series, v: NumView): [number, number] | undefined {
  const { values, valid, rows } = v;
  if (rows || valid === null || hasPacked(values)) return undefined;
  if (!s.source) {
    sumValid(values, valid, s.length);
    return [SUM_COUNT[0]!, SUM_COUNT[1]!];
  }
  if (values.length !== s.length) return undefined;
  let kept = columnSums.get(values);
  if (!kept) {
    sumValid(values, valid, s.length);
    columnSums.set(values, (kept = [SUM_COUNT[0]!, SUM_COUNT[1]!]));
  }
  return [kept[0], kept[1]];
}

/** [sum, count] of a table's whole column with missing values, by its values (sumInPlace). */
const columnSums = new SafeWeakMap<Float64Array, readonly [number, number]>();

// sumValid's answer: the loop ends its function (no code after it that V8's compile of the running
// loop has not seen: reached, it would discard that compile on every call; dtAccessor.ts)
const SUM_COUNT = new Float64Array(2);

function sumValid(values: Float64Array, valid: Uint8Array, n: number): void {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const x = values[i]!;
    if (valid[i] === 1 && x === x) {
      sum += x;
      count++;
    }
  }
  SUM_COUNT[0] = sum;
  SUM_COUNT[1] = count;
}

/** How many values of a numeric view are present and not NaN (a whole column's count is kept for the session). */
export function presentCount(v: NumView, n: number): number {
  return dense(v, n).length;
}

/**
 * The present values in position order, or undefined: a column's kept packed values (shared for the
 * session: only read them, as selectQuantiles does) or a pending chain's, computed.
 */
export function presentNumbers(s: Series): Float64Array | undefined {
  const c = pendingChain(s);
  if (c) return chainPresent(c);
  const v = numView(s);
  return v ? dense(v, s.length) : undefined;
}

/** [sum, count] at a kept filter's rows, by its words, then the column's values (and validity). */
const rowSums = new SafeWeakMap<
  Uint32Array,
  WeakMap<Float64Array, { valid: Uint8Array | null; sum: number; count: number }>
>();

/**
 * [sum, count] of the present values of a view with a row map (a filtered table's column: `t[mask][c]`),
 * read at its rows: the additions of denseSum over dense()'s packed copy, in the same order, without
 * the copy (a fresh array, so never one whose sum was kept).
 */
function sumAtRows(s: Series, v: NumView): [number, number] | undefined {
  const { values, valid, rows } = v;
  if (!rows || rows.length < s.length) return undefined;
  // the rows of a kept filter (frame/keptFilterRows.ts): the [sum, count] kept by its words and the column
  const words = s.source ? keptFilterOfRows(s.source.table, rows, s.length) : undefined;
  const known = words === undefined ? undefined : rowSums.get(words)?.get(values);
  if (known !== undefined && known.valid === valid) return [known.sum, known.count];
  sumRows(values, valid, rows, s.length);
  if (words !== undefined) {
    let byValues = rowSums.get(words);
    if (byValues === undefined) rowSums.set(words, (byValues = new SafeWeakMap()));
    byValues.set(values, { valid, sum: SUM_COUNT[0]!, count: SUM_COUNT[1]! });
  }
  return [SUM_COUNT[0]!, SUM_COUNT[1]!];
}

function sumRows(values: Float64Array, valid: Uint8Array | null, rows: Uint32Array, n: number): void {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    const x = values[r]!;
    if ((valid === null || valid[r] === 1) && x === x) {
      sum += x;
      count++;
    }
  }
  SUM_COUNT[0] = sum;
  SUM_COUNT[1] = count;
}

/** sum, or undefined. A mask counts its true values. */
export function fastSum(s: Series): number | undefined {
  const c = pendingChain(s);
  if (c) return chainSum(c)[0];
  const t = typedOf(s);
  if (t && t.kind === 'bool') {
    if (t.trues !== undefined) return t.trues;
    let c = 0;
    const b = t.bits;
    for (let i = 0; i < b.length; i++) c += b[i]!;
    return c;
  }
  const v = numView(s);
  if (!v) return undefined;
  const direct = sumInPlace(s, v) ?? sumAtRows(s, v);
  if (direct) return direct[0];
  return denseSum(dense(v, s.length));
}

/** [sum, count] of a pending chain's present values; a fillna alone reads its column in place. */
function chainSum(c: NonNullable<ReturnType<typeof pendingChain>>): [number, number] {
  const f = fillOnly(c);
  return f ? filledSumCount(f, () => dense(f.base, f.n)) : chainSumCount(c);
}

/** [sum, count] of the present values, or undefined. */
export function fastSumCount(s: Series): [number, number] | undefined {
  const c = pendingChain(s);
  if (c) return chainSum(c);
  const t = typedOf(s);
  if (t && t.kind === 'bool') return [fastSum(s)!, s.length];
  const v = numView(s);
  if (!v) return undefined;
  const direct = sumInPlace(s, v) ?? sumAtRows(s, v);
  if (direct) return direct;
  const xs = dense(v, s.length);
  return [denseSum(xs), xs.length];
}

/** Sample variance (ddof=1, two passes as frame/aggFuncs.ts), null under two values; undefined without a view. */
export function fastVariance(s: Series): number | null | undefined {
  const c = pendingChain(s);
  if (c) {
    const f = fillOnly(c);
    return f ? filledVariance(f, () => dense(f.base, f.n)) : sampleVariance(chainPresent(c));
  }
  const v = numView(s);
  if (!v) return undefined;
  return sampleVariance(dense(v, s.length));
}

/** The position of the first smallest (sign -1) or largest (sign 1) value, -1 when none; undefined without a view. */
export function fastExtremePos(s: Series, sign: 1 | -1): number | undefined {
  const t = typedOf(s);
  const v = t && t.kind === 'num' && (t.type !== 'date' || !presentNaN(t, s.length)) ? t : null;
  if (!v) return undefined;
  const { values, valid, rows } = v;
  if (!rows) return sign > 0 ? maxPos(values, valid, s.length) : minPos(values, valid, s.length);
  let best = 0;
  let pos = -1;
  for (let i = 0; i < s.length; i++) {
    const r = rows[i]!;
    const x = values[r]!;
    if ((valid !== null && valid[r] !== 1) || x !== x) continue;
    if (pos < 0 || (sign > 0 ? x > best : x < best)) {
      best = x;
      pos = i;
    }
  }
  return pos;
}

/** True when a present value is NaN: a date view then keeps the per-value path (an Invalid Date compares as equal to any). */
function presentNaN(v: NumView, n: number): boolean {
  const { values, valid, rows } = v;
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i]! : i;
    if ((valid === null || valid[r] === 1) && values[r] !== values[r]) return true;
  }
  return false;
}

// the whole column in storage order: one loop per direction, the first extreme kept. Each loop is
// the end of its own function (maxScan, minScan): code after a loop in the function that holds it
// has no type feedback when V8 enters the loop's on-stack code, and that code was entered again and
// deoptimized there on every warm call (docs/architecture.md, "Inside the prelude").
function maxPos(values: Float64Array, valid: Uint8Array | null, n: number): number {
  const pos = maxScan(values, valid, n);
  // -Infinity itself is only a maximum when nothing is larger: the first present one
  return pos < 0 ? firstPresent(values, valid, n) : pos;
}

function minPos(values: Float64Array, valid: Uint8Array | null, n: number): number {
  const pos = minScan(values, valid, n);
  return pos < 0 ? firstPresent(values, valid, n) : pos;
}

function maxScan(values: Float64Array, valid: Uint8Array | null, n: number): number {
  let best = -Infinity;
  let pos = -1;
  for (let i = 0; i < n; i++) {
    const x = values[i]!;
    if (x > best && (valid === null || valid[i] === 1)) {
      best = x;
      pos = i;
    }
  }
  return pos;
}

function minScan(values: Float64Array, valid: Uint8Array | null, n: number): number {
  let best = Infinity;
  let pos = -1;
  for (let i = 0; i < n; i++) {
    const x = values[i]!;
    if (x < best && (valid === null || valid[i] === 1)) {
      best = x;
      pos = i;
    }
  }
  return pos;
}

function firstPresent(values: Float64Array, valid: Uint8Array | null, n: number): number {
  for (let i = 0; i < n; i++) if ((valid === null || valid[i] === 1) && values[i] === values[i]) return i;
  return -1;
}

/** The count of present values (numbers: not null and not NaN; dictionary text: not null); undefined otherwise. */
export function fastCount(s: Series): number | undefined {
  const c = pendingChain(s);
  if (c) return fillOnly(c) ? c.n : chainSumCount(c)[1];
  const t = typedOf(s);
  if (!t) return undefined;
  if (t.kind === 'bool') return s.length;
  if (t.kind === 'dict') {
    let c = 0;
    const { codes, rows } = t;
    for (let i = 0; i < s.length; i++) if (codes[rows ? rows[i]! : i]! >= 0) c++;
    return c;
  }
  if (t.kind === 'num' && t.type !== 'date') {
    // a table's whole column counted in place on its first touch (sumInPlace), not packed
    const kept = s.source ? sumInPlace(s, t) : undefined;
    return kept ? kept[1] : dense(t, s.length).length;
  }
  return undefined;
}

/** The first smallest (sign -1) or largest (sign 1) value, null when none; undefined without a view. */
export function fastExtremeValue(s: Series, sign: 1 | -1): number | null | undefined {
  const c = pendingChain(s);
  if (c) {
    const f = fillOnly(c);
    const xs = f ? dense(f.base, f.n) : null;
    const got = f && xs ? filledExtreme(f, xs.length, xs.length ? extremeOf(xs, sign) : null, sign) : undefined;
    return got !== undefined ? got : chainExtreme(c, sign);
  }
  const v = numView(s);
  if (!v) return undefined;
  const kept = extremeInPlace(s, v, sign);
  if (kept !== undefined) return kept;
  const xs = dense(v, s.length);
  return xs.length ? extremeOf(xs, sign) : null;
}

/**
 * The first smallest or largest present value of a table's whole column with missing values, read
 * in place (the comparisons extremeOf makes over the packed values, in the same order: no packed
 * copy on a first touch, as sumInPlace) and kept for the session; null when none. undefined where
 * sumInPlace does not apply.
 */
function extremeInPlace(s: Series, v: NumView, sign: 1 | -1): number | null | undefined {
  const { values, valid, rows } = v;
  if (rows || valid === null || !s.source || values.length !== s.length || hasPacked(values)) return undefined;
  const kept = sign > 0 ? columnMax : columnMin;
  const hit = kept.get(values);
  if (hit !== undefined) return hit;
  if (sign > 0) maxValid(values, valid, s.length);
  else minValid(values, valid, s.length);
  const x = EXTREME[1] === 1 ? EXTREME[0]! : null;
  kept.set(values, x);
  return x;
}

const columnMin = new SafeWeakMap<Float64Array, number | null>();
const columnMax = new SafeWeakMap<Float64Array, number | null>();
// the in-place loops' answer: [the value, 1 when one was present] (as SUM_COUNT)
const EXTREME = new Float64Array(2);

function maxValid(values: Float64Array, valid: Uint8Array, n: number): void {
  let best = 0;
  let found = 0;
  for (let i = 0; i < n; i++) {
    const x = values[i]!;
    if (valid[i] === 1 && x === x && (found === 0 || x > best)) {
      best = x;
      found = 1;
    }
  }
  EXTREME[0] = best;
  EXTREME[1] = found;
}

function minValid(values: Float64Array, valid: Uint8Array, n: number): void {
  let best = 0;
  let found = 0;
  for (let i = 0; i < n; i++) {
    const x = values[i]!;
    if (valid[i] === 1 && x === x && (found === 0 || x < best)) {
      best = x;
      found = 1;
    }
  }
  EXTREME[0] = best;
  EXTREME[1] = found;
}

const extremeOf = (xs: Float64Array, sign: 1 | -1): number => (sign > 0 ? maxOf(xs) : minOf(xs));

// one function per direction: each loop keeps its own type feedback and stays branch-predictable
function maxOf(xs: Float64Array): number {
  let best = xs[0]!;
  for (let i = 1; i < xs.length; i++) if (xs[i]! > best) best = xs[i]!;
  return best;
}

function minOf(xs: Float64Array): number {
  let best = xs[0]!;
  for (let i = 1; i < xs.length; i++) if (xs[i]! < best) best = xs[i]!;
  return best;
}

/**
 * The count of distinct present numbers (as a Set counts them: -0 and 0 are one value), with an
 * open-addressing hash over the values' bits (numberKeys.ts) instead of a Set of boxed numbers;
 * undefined without a numeric view.
 */
export function fastDistinctNumbers(s: Series): number | undefined {
  const c = pendingChain(s);
  if (c) {
    const keys = new NumberKeys(s.length);
    chainBlocks(c, (xs, len) => keys.addAll(xs, len));
    return keys.size - (keys.nan >= 0 ? 1 : 0); // a NaN kept by round() is missing, as in the per-value count
  }
  const v = numView(s);
  if (!v) return undefined;
  const xs = dense(v, s.length);
  let d = v.rows ? undefined : distinctKept.get(xs);
  if (d === undefined) {
    const keys = new NumberKeys(xs.length);
    keys.addAll(xs, xs.length);
    d = keys.size; // dense: no NaN
    if (!v.rows) distinctKept.set(xs, d);
  }
  return d;
}

/** nunique of a whole column's packed values (kept with them for the session: fast/presentValues.ts). */
const distinctKept = new SafeWeakMap<Float64Array, number>();

/**
 * value_counts' keys and counts for a number column, in order of first appearance (a key's value
 * is its first occurrence: -0 when -0 came before 0), with an open-addressing hash over the values'
 * bits (numberKeys.ts). Missing values (null, NaN) are one key, at index `missing` (null in the
 * result), unless `dropna`; `missing` is -1 when there is no such key. undefined without a numeric view.
 */
export function fastCountNumbers(s: Series, dropna: boolean): NumberCounts | undefined {
  const c = pendingChain(s);
  const mapped = c ? mappedCounts(c, dropna) : undefined;
  if (mapped) return mapped;
  const v = numView(s);
  if (!v) return undefined;
  // a whole host column (no view of its own, storage order): its counts are kept for the session
  const kept = !s.view && s.source !== null && v.rows === null ? v.values : null;
  const hit = kept && hostCounts.get(kept)?.[dropna ? 1 : 0];
  if (hit) return hit;
  const got = countNumbers(v, s.length, dropna);
  if (kept && got.firsts.length <= KEEP_KEYS) {
    const both = hostCounts.get(kept) ?? [undefined, undefined];
    both[dropna ? 1 : 0] = got;
    hostCounts.set(kept, both);
  }
  return got;
}

/**
 * The counts of a pending chain of per-value steps (a date part: `dt.year`, `dt.quarter`;
 * `s.add(1)`) over a base of small integers, without computing the chain: the base's counts
 * (smallIntCounts), each key mapped through the steps (chainOfValues: the value the chain holds
 * wherever the base holds the key), and keys that map to one value merged, as a Map merges them (0
 * and -0 one key, NaN the missing key). The base's keys are in order of first appearance, so a
 * merged key first appears where its earliest base key does, with that key's mapped value, and
 * counts the sum of its keys' counts: what counting the computed values gives. undefined when the
 * base is not small integers or a step reads more than its value: the caller computes the chain.
 */
function mappedCounts(c: NonNullable<ReturnType<typeof pendingChain>>, dropna: boolean): NumberCounts | undefined {
  const base = baseCounts(c.base, c.n);
  const mapped = base && chainOfValues(c, base.firsts);
  if (!base || !mapped) return undefined;
  const m = mapped.length;
  const keys = new NumberKeys(m);
  const counts = new Int32Array(m);
  for (let k = 0; k < m; k++) counts[keys.add(mapped[k]!)]! += base.counts[k]!;
  return countsOfKeys(keys, counts, dropna);
}

/**
 * smallIntCounts of a chain's base with its missing key (a fillna step maps it to a value). A
 * whole array read in storage order (a date getter's answers, kept for the session and never
 * written: fast/dateFeatures.ts) keeps its counts for the session, as a host column's are kept
 * below: a warm `dt.year.value_counts()` counts nothing. Callers only read them.
 */
function baseCounts(base: NumView, n: number): NumberCounts | undefined {
  const whole = base.rows === null && base.valid === null && base.values.length === n ? base.values : null;
  const hit = whole && baseCountsKept.get(whole);
  if (hit) return hit;
  const got = smallIntCounts(base, n, false);
  if (whole && got && got.firsts.length <= KEEP_KEYS) baseCountsKept.set(whole, got);
  return got;
}

const baseCountsKept = new SafeWeakMap<Float64Array, NumberCounts>();

/**
 * value_counts of whole host columns by their values array, [with missing, without]: a host
 * column never changes, so a warm `award_data['Award Year'].value_counts()` counts nothing. Callers
 * only read the arrays.
 */
const hostCounts = new SafeWeakMap<Float64Array, [NumberCounts | undefined, NumberCounts | undefined]>();
/** Counts with more keys than this are not kept (12 bytes a key). */
const KEEP_KEYS = 1 << 16;

function countNumbers(v: NumView, n: number, dropna: boolean): NumberCounts {
  const small = smallIntCounts(v, n, dropna);
  if (small) return small;
  const keys = new NumberKeys(n);
  if (!v.rows && v.valid === null)
    keys.addAll(v.values, n); // NaN is the missing key: one key, at its first appearance
  else addPositions(keys, v, n);
  return countsOfKeys(keys, keys.counts, dropna);
}

// The loop ends its function (docs/architecture.md, "Inside the prelude": with code after it, V8
// threw its compile away on every call).
function addPositions(keys: NumberKeys, v: NumView, n: number): void {
  const { values, valid, rows } = v;
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i]! : i;
    keys.add(valid !== null && valid[r] === 0 ? NaN : values[r]!);
  }
}

/** The keys' first values and `counts` as value_counts' counts, the missing key (NaN) dropped with `dropna`. */
function countsOfKeys(keys: NumberKeys, allCounts: Int32Array, dropna: boolean): NumberCounts {
  let { size } = keys;
  const firsts = keys.firsts.subarray(0, size);
  const counts = allCounts.subarray(0, size);
  const missing = keys.nan;
  if (missing < 0 || !dropna) return { firsts, counts, missing };
  firsts.copyWithin(missing, missing + 1);
  counts.copyWithin(missing, missing + 1);
  size--;
  return { firsts: firsts.subarray(0, size), counts: counts.subarray(0, size), missing: -1 };
}
