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
  // each loop ends its own function: code after a loop in the same function deopted the loop's
  // compiled code on every warm call (docs/architecture.md, "Inside the prelude")
  if (!keys) {
    const at = extremeRow(isMin, values, valid, order, m);
    if (at >= 0) {
      best[0] = values[at]!;
      seen[0] = 1;
    }
  } else groupExtremes(isMin, values, valid, keys, order, m, best, seen);
  return datesOf(best, seen, size);
}

/**
 * The row of the one group's extreme, or -1 when no row is valid: the first valid row's time, replaced
 * only by a strictly smaller (larger) one, so the row kept holds the time the running value would.
 */
function extremeRow(
  isMin: boolean,
  values: Float64Array,
  valid: Uint8Array,
  order: Uint32Array | null,
  m: number,
): number {
  let b = 0;
  let at = -1;
  for (let j = 0; j < m; j++) {
    const i = order ? order[j]! : j;
    if (!valid[i]) continue;
    const v = values[i]!;
    if (at < 0 || (isMin ? v < b : v > b)) {
      b = v;
      at = i;
    }
  }
  return at;
}

function groupExtremes(
  isMin: boolean,
  values: Float64Array,
  valid: Uint8Array,
  keys: Uint32Array,
  order: Uint32Array | null,
  m: number,
  best: Float64Array,
  seen: Uint8Array,
): void {
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

function datesOf(best: Float64Array, seen: Uint8Array, size: number): unknown[] {
  const out = new Array<unknown>(size);
  for (let g = 0; g < size; g++) out[g] = seen[g] ? new NativeDate(best[g]!) : undefined;
  return out;
}
