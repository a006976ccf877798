/**
 * value_counts' keys and counts (fastReduce.ts fastCountNumbers: keys in order of first
 * appearance, missing values and NaN one key) for a number column whose present values are
 * integers over a span no wider than the column is long, such as years: a count per value in an
 * Int32Array instead of a hash of each value's bits (219,590 years: ~0.5 ms against ~3 ms).
 * undefined otherwise (nothing present, a value that is not an integer, a -0, a wide span): the
 * caller then hashes.
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
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i]! : i;
    const x = values[r]!;
    if ((valid !== null && valid[r] === 0) || x !== x) continue;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  // nothing present, a value outside int32 (infinities too) or a wide span: hash
  if (!(lo <= hi && hi - lo <= n + 1024 && lo >= -0x80000000 && hi <= 0x7fffffff)) return undefined;
  const span = hi - lo + 1;
  const count = new Int32Array(span + 1); // the last slot counts the missing values
  const first = new Int32Array(span + 1);
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i]! : i;
    const x = values[r]!;
    let slot = span;
    if ((valid === null || valid[r] !== 0) && x === x) {
      // x is an int32 here or not an integer (x - lo alone could round a tiny fraction away); a -0
      // would need its own first occurrence as the key's value
      if ((x | 0) !== x || (x === 0 && 1 / x < 0)) return undefined;
      slot = x - lo;
    }
    if (count[slot]++ === 0) first[slot] = i;
  }
  let m = 0;
  const used = dropna ? span : span + 1;
  for (let s = 0; s < used; s++) if (count[s]! > 0) m++;
  const at = new Int32Array(m);
  m = 0;
  for (let s = 0; s < used; s++) if (count[s]! > 0) at[m++] = first[s]!;
  at.sort(); // distinct positions: the keys' order of first appearance
  const firsts = new Float64Array(m);
  const counts = new Int32Array(m);
  let missing = -1;
  for (let k = 0; k < m; k++) {
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
  return { firsts, counts, missing };
}
