/**
 * value_counts (frame/valueCounts.ts) on key codes: the distinct values (or combinations) of 1-3
 * host dictionary/number/date columns counted in one pass over the visible rows in table order,
 * first appearance kept, without building a key per row. null and NaN are one missing key, as in
 * the plain path; 0 and -0 are one value.
 */
import type { ColumnTable } from 'arquero';
import { NativeMap } from '../intrinsics.js';
import { combinableKeys } from './groups.js';

/** Distinct keys in order of first appearance: the first row of each and its count. */
export interface FastCounts {
  firsts: number[];
  counts: number[];
}

/** Counts of `names` over `t`, or undefined when a column is not a host dict/number/date column. */
export function fastValueCounts(t: ColumnTable, names: readonly string[], dropna: boolean): FastCounts | undefined {
  try {
    return count(t, names, dropna);
  } catch {
    return undefined; // never a different answer: the plain path runs
  }
}

function count(t: ColumnTable, names: readonly string[], dropna: boolean): FastCounts | undefined {
  const keys = combinableKeys(t, names);
  if (!keys) return undefined;
  const { kc, cells } = keys;
  // per column: code with NaN folded into null (0)
  const cols = kc.map((k) => ({ codes: k.codes, nan: k.nan, card: k.card }));
  const rows = t.isOrdered() || t.isFiltered() ? (t.indices() as Uint32Array) : null;
  const m = rows ? rows.length : t.totalRows();
  const firsts: number[] = [];
  const counts: number[] = [];
  const dense = cells <= 1 << 22 ? new Int32Array(cells).fill(-1) : null;
  const sparse = dense ? null : new NativeMap<number, number>();
  for (let j = 0; j < m; j++) {
    const i = rows ? rows[j] : j;
    let code = 0;
    let scale = 1;
    let missing = false;
    for (const c of cols) {
      let x = c.codes[i];
      if (x === c.nan) x = 0;
      if (x === 0) missing = true;
      code += x * scale;
      scale *= c.card;
    }
    if (missing && dropna) continue;
    let k = dense ? dense[code] : (sparse!.get(code) ?? -1);
    if (k < 0) {
      k = counts.length;
      if (dense) dense[code] = k;
      else sparse!.set(code, k);
      firsts.push(i);
      counts.push(0);
    }
    counts[k]++;
  }
  return { firsts, counts };
}
