/**
 * `op.min` / `op.max` of a host date column in a rollup, on its Float64Array of times: Arquero's
 * reducer sees a fresh Date per row (null rows skipped; a Date is valid even when its time is NaN),
 * keeps the first it sees, then replaces it by a later one only when `v < min` / `v > max` (Dates
 * compare by time, and nothing compares with NaN). The same updates on the times, in the same scan
 * order, give the same row's time; the result is a Date of it, as the row's own `at()` gives.
 */
import { NativeDate } from '../intrinsics.js';

/** Per group: a Date of the extreme time, or undefined for a group with no non-null date. */
export function dateExtremes(
  isMin: boolean,
  values: Float64Array,
  valid: Uint8Array,
  keys: Uint32Array | null,
  size: number,
  order: Uint32Array | null,
  m: number,
): unknown[] {
  const best = new Float64Array(size);
  const seen = new Uint8Array(size);
  if (!keys) {
    let b = 0;
    let s = 0;
    for (let j = 0; j < m; j++) {
      const i = order ? order[j]! : j;
      if (!valid[i]) continue;
      const v = values[i]!;
      if (!s || (isMin ? v < b : v > b)) {
        b = v;
        s = 1;
      }
    }
    best[0] = b;
    seen[0] = s;
  } else {
    for (let j = 0; j < m; j++) {
      const i = order ? order[j]! : j;
      if (!valid[i]) continue;
      const v = values[i]!;
      const g = keys[i]!;
      if (!seen[g] || (isMin ? v < best[g]! : v > best[g]!)) {
        best[g] = v;
        seen[g] = 1;
      }
    }
  }
  const out = new Array<unknown>(size);
  for (let g = 0; g < size; g++) out[g] = seen[g] ? new NativeDate(best[g]!) : undefined;
  return out;
}
