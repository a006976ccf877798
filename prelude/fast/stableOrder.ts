/**
 * The stable order of keys with missing values (NaN), as a comparator sort that puts missing values
 * last (or first) whatever the direction orders them: the present keys by radixOrder.ts (ties by
 * position), the missing ones after (or before) them in position order. Series.sort_values
 * (series/fastOrder.ts) and a table's sort_values by host columns (sortedRows.ts) share it.
 */
import { radixOrder } from './radixOrder.js';

/**
 * Every position 0..n-1 of `keys` by key (NaN = missing), ties by position, missing positions last
 * (or first with `naFirst`).
 * @example sortedPositions(Float64Array.of(2, NaN, -0, 0, 1), true, false) // Uint32Array [2, 3, 4, 0, 1]
 */
export function sortedPositions(keys: Float64Array, ascending: boolean, naFirst: boolean): Uint32Array {
  const m = presentCount(keys);
  const out = new Uint32Array(keys.length);
  const pos = new Uint32Array(m);
  const present = new Float64Array(m);
  gatherPresent(keys, pos, present);
  const idx = radixOrder(present, ascending);
  positionsAt(pos, idx, out, naFirst ? keys.length - m : 0);
  missingPositions(keys, out, naFirst ? 0 : m);
  return out;
}

// Each loop over the keys ends its function (docs/architecture.md, "Inside the prelude"): with code
// after it, V8 threw its compile away on every call (sort_values of 219,590 amounts).

/** How many keys are present (not NaN). */
export function presentCount(keys: Float64Array): number {
  let m = 0;
  for (let i = 0; i < keys.length; i++) if (keys[i] === keys[i]) m++;
  return m;
}

/** pos[k] and present[k]: the position and key of the k-th present (not NaN) key. */
function gatherPresent(keys: Float64Array, pos: Uint32Array, present: Float64Array): void {
  for (let i = 0, k = 0; i < keys.length; i++) {
    const x = keys[i]!;
    if (x !== x) continue;
    pos[k] = i;
    present[k++] = x;
  }
}

/** out[at + j] = pos[idx[j]]: the present positions in key order. */
function positionsAt(pos: Uint32Array, idx: Uint32Array, out: Uint32Array, at: number): void {
  for (let j = 0; j < idx.length; j++) out[at + j] = pos[idx[j]!]!;
}

/** The positions of missing (NaN) keys into out[at...], in position order. */
function missingPositions(keys: Float64Array, out: Uint32Array, at: number): void {
  for (let i = 0, k = at; i < keys.length; i++) if (keys[i] !== keys[i]) out[k++] = i;
}
