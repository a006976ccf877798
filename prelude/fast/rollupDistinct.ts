/**
 * `op.distinct(col)` in the fast rollup: per group, the number of distinct valid values plus one
 * when some value is null or NaN (Arquero's `distinct`: a Map of values, SameValueZero, and
 * `valid === count ? 0 : 1`). A dictionary column counts its codes (each code is one distinct
 * string); a number column counts values in a Set (SameValueZero, as the Map: -0 and 0 are one).
 * Before, Arquero read each row through the column's `at()` into a Map keyed by the string:
 * ~0.4-0.7 s for `Company` over 219,590 rows on the 2-core VM.
 */
import type { Source } from './source.js';

/** Distinct counts per group of `src` over rows `order` (or 0..m-1), grouped by `keys` (or one group). */
export function distinctCounts(
  src: Source,
  keys: Uint32Array | null,
  size: number,
  order: Uint32Array | null,
  m: number,
): number[] {
  const invalid = new Uint8Array(size);
  const out = new Array<number>(size).fill(0);
  if (src.kind === 'dict' && !keys) {
    const seen = new Uint8Array(src.dict.length);
    const codes = src.codes;
    for (let j = 0; j < m; j++) {
      const c = codes[order ? order[j]! : j]!;
      if (c < 0) invalid[0] = 1;
      else if (!seen[c]) {
        seen[c] = 1;
        out[0]!++;
      }
    }
  } else {
    // a group-and-value key per row: the code (or the number) within its group
    const seen = new Map<number, Set<number>>();
    const isDict = src.kind === 'dict';
    for (let j = 0; j < m; j++) {
      const i = order ? order[j]! : j;
      const g = keys ? keys[i]! : 0;
      let v: number;
      if (isDict) {
        v = src.codes[i]!;
        if (v < 0) {
          invalid[g] = 1;
          continue;
        }
      } else {
        v = src.values[i]!;
        if (!src.valid[i] || v !== v) {
          invalid[g] = 1;
          continue;
        }
      }
      let set = seen.get(g);
      if (!set) seen.set(g, (set = new Set()));
      set.add(v);
    }
    for (const [g, set] of seen) out[g] = set.size;
  }
  for (let g = 0; g < size; g++) out[g]! += invalid[g]!;
  return out;
}
