/**
 * Sorting plain numbers in place, as a stable `a - b` comparator sort orders them, for the sorts user
 * code writes by hand (handSort.ts): equal numbers cannot be told apart (no NaN is given; a -0 can be
 * told from 0, so an array holding one goes to the positional radix order instead), so any correct
 * order of the values is the answer. Two things make it cheap:
 * - numbers that are whole, or whole hundredths (money), within a span of 2^32 steps are sorted as
 *   32-bit integers, value-carrying, in at most two 16-bit counting passes (a float64's four passes
 *   over positions cost three to four times as much);
 * - the session keeps the last few large sorts' input and answer (sortMemo.ts): a program run again
 *   on the same numbers (a warm session re-running its question) reads the answer instead of sorting.
 */
import { radixOrder } from './radixOrder.js';
import { keptSort, keepSort } from './sortMemo.js';

/** The scales tried: whole numbers, then hundredths. */
const SCALES = [1, 100] as const;
const SPAN = 0xffffffff;
/** Read once: a run may replace `Math.round` (or a typed array's methods, which nothing here calls). */
const round = globalThis.Math.round;

/** The first `m` of `keys`, copied. */
export function copyOf(keys: Float64Array, m: number): Float64Array {
  const out = new Float64Array(m);
  for (let i = 0; i < m; i++) out[i] = keys[i]!;
  return out;
}

/**
 * Sorts `keys` (numbers, no NaN) in place, ascending or descending as `a - b` or `b - a` orders them,
 * and returns it, or on a memo hit returns the kept answer instead. Either way the array returned is
 * the memo's from then on: read it, never write it.
 * @example sortNumbers(Float64Array.of(2.5, -1, 0.25), false) // Float64Array [-1, 0.25, 2.5]
 */
export function sortNumbers(keys: Float64Array, desc: boolean): Float64Array {
  const tag = desc ? 'values-desc' : 'values-asc';
  const kept = keptSort(keys, tag);
  if (kept) return kept;
  const input = copyOf(keys, keys.length);
  if (sortScaled(keys)) {
    // no -0 among them: equal keys are the same number, so the reversed order is the descending one
    if (desc)
      for (let i = 0, j = keys.length - 1; i < j; i++, j--) {
        const t = keys[i]!;
        keys[i] = keys[j]!;
        keys[j] = t;
      }
  } else {
    // stable by position: -0 and 0, equal to the comparator, keep their order either way
    const order = radixOrder(input, !desc);
    for (let j = 0; j < keys.length; j++) keys[j] = input[order[j]!]!;
  }
  keepSort(input, tag, keys);
  return keys;
}

/**
 * Sorts `keys` in place when every one is `r / s` for an integer `r` (s = 1 or 100, checked by
 * rounding back: then r is a strictly increasing function of the key) and the r span at most 2^32
 * steps, with no -0 (written back from r it would come back as 0); false (keys untouched) otherwise.
 */
function sortScaled(keys: Float64Array): boolean {
  const m = keys.length;
  for (const s of SCALES) {
    let lo = Infinity;
    let hi = -Infinity;
    let k = 0;
    for (; k < m; k++) {
      const v = keys[k]!;
      const r = round(v * s);
      if (r / s !== v || (v === 0 && 1 / v < 0)) break;
      if (r < lo) lo = r;
      if (r > hi) hi = r;
    }
    if (k < m) continue;
    // `<=` is false for a span of NaN (every key an infinity) or Infinity
    if (!(hi - lo <= SPAN)) return false;
    const u = new Uint32Array(m);
    for (let j = 0; j < m; j++) u[j] = round(keys[j]! * s) - lo;
    const sorted = sortUint32(u);
    for (let j = 0; j < m; j++) keys[j] = (sorted[j]! + lo) / s;
    return true;
  }
  return false;
}

/** `u` sorted ascending (two 16-bit least-significant-digit passes, a pass skipped when its digit never varies). */
function sortUint32(u: Uint32Array): Uint32Array {
  const m = u.length;
  if (m < 2) return u;
  let from: Uint32Array = u;
  let to: Uint32Array = new Uint32Array(m);
  const count = new Uint32Array(65537);
  for (let shift = 0; shift <= 16; shift += 16) {
    for (let d = 0; d <= 65536; d++) count[d] = 0;
    for (let k = 0; k < m; k++) count[((from[k]! >>> shift) & 0xffff) + 1]++;
    if (count[((from[0]! >>> shift) & 0xffff) + 1] === m) continue;
    for (let d = 0; d < 65536; d++) count[d + 1] += count[d]!;
    for (let k = 0; k < m; k++) {
      const v = from[k]!;
      to[count[(v >>> shift) & 0xffff]!++] = v;
    }
    const t = from;
    from = to;
    to = t;
  }
  return from;
}
