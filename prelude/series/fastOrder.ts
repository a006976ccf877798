/**
 * Sorting a Series on its typed arrays (typed.ts): positions ordered by the Float64Array (numbers and
 * dates as ms) or by each dictionary string's rank, ties by position (the stable order), missing
 * values after (or before) the rest; nlargest/nsmallest keep only n candidates. The same positions
 * as order.ts's comparator over values; undefined when the Series has no such view.
 */
import type { Series } from './Series.js';
import { typedOf, type NumView } from './typed.js';
import { radixOrder } from '../fast/radixOrder.js';

/** Sort keys per position (NaN = missing), or undefined. */
function keysOf(s: Series): Float64Array | undefined {
  const t = typedOf(s);
  if (!t || (t.kind !== 'num' && t.kind !== 'dict')) return undefined;
  const n = s.length;
  const keys = new Float64Array(n);
  if (t.kind === 'num') {
    const { values, valid, rows } = t;
    for (let i = 0; i < n; i++) {
      const r = rows ? rows[i]! : i;
      keys[i] = valid === null || valid[r] ? values[r]! : NaN;
    }
    return keys;
  }
  // strings order by code unit: rank the dictionary once, then sort by rank
  const { codes, dict, rows } = t;
  const byString = Array.from(dict.keys()).sort((a, b) => (dict[a]! < dict[b]! ? -1 : dict[a]! > dict[b]! ? 1 : 0));
  const rank = new Float64Array(dict.length);
  // equal strings (a dictionary may repeat one) share a rank
  for (let j = 0; j < byString.length; j++)
    rank[byString[j]!] = j > 0 && dict[byString[j]!] === dict[byString[j - 1]!] ? rank[byString[j - 1]!]! : j;
  for (let i = 0; i < n; i++) {
    const c = codes[rows ? rows[i]! : i]!;
    keys[i] = c < 0 ? NaN : rank[c]!;
  }
  return keys;
}

/** Every position sorted (stable, missing last unless naFirst), or undefined. */
export function fastSortPositions(s: Series, ascending: boolean, naFirst: boolean): number[] | undefined {
  const keys = keysOf(s);
  if (!keys) return undefined;
  const missing: number[] = [];
  missingPositions(keys, missing);
  const out = sortPresent(keys, ascending);
  return naFirst ? [...missing, ...out] : missing.length ? out.concat(missing) : out;
}

/** The positions of present keys (NaN skipped), sorted by key, ties by position (fast/radixOrder.ts). */
function sortPresent(keys: Float64Array, ascending: boolean): number[] {
  const m = presentCount(keys);
  const pos = new Uint32Array(m);
  const present = new Float64Array(m);
  gatherPresent(keys, pos, present);
  const idx = radixOrder(present, ascending);
  const out = new Array<number>();
  positionsAt(pos, idx, m, out);
  return out;
}

// Each loop over the keys ends its function (docs/architecture.md, "Inside the prelude"): with code
// after it, V8 threw its compile away on every call (sort_values of 219,590 amounts).

function missingPositions(keys: Float64Array, missing: number[]): void {
  for (let i = 0; i < keys.length; i++) if (keys[i] !== keys[i]) missing.push(i);
}

function presentCount(keys: Float64Array): number {
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

function positionsAt(pos: Uint32Array, idx: ArrayLike<number>, m: number, out: number[]): void {
  for (let j = 0; j < m; j++) out.push(pos[idx[j]!]!);
}

/** The first n positions of the stable sort, missing values skipped (nlargest/nsmallest), or undefined. */
export function fastTopPositions(s: Series, n: number, largest: boolean): number[] | undefined {
  if (!(n >= 0)) return undefined;
  const t = typedOf(s);
  if (t && t.kind === 'num' && Math.floor(n) <= 1000) return topNumbers(t, Math.floor(n), largest, s.length);
  const keys = keysOf(s);
  if (!keys) return undefined;
  const k = Math.floor(n);
  if (k > 1000) return sortPresent(keys, !largest).slice(0, k); // many: one sort beats insertion
  const top: number[] = []; // positions, best first; a later position never beats an equal key
  const better = (a: number, b: number) => (largest ? a > b : a < b);
  for (let i = 0; i < keys.length; i++) {
    const x = keys[i]!;
    if (x !== x) continue;
    if (top.length === k && (k === 0 || !better(x, keys[top[k - 1]!]!))) continue;
    let j = top.length;
    while (j > 0 && better(x, keys[top[j - 1]!]!)) j--;
    top.splice(j, 0, i);
    if (top.length > k) top.pop();
  }
  return top;
}

/**
 * fastTopPositions on a number Series' typed view, with no key per position: a value enters only
 * when it beats the worst of a full top (`bound`), so most positions cost a read and a comparison.
 */
function topNumbers(t: NumView, k: number, largest: boolean, length: number): number[] {
  const { values, valid, rows } = t;
  const top: number[] = []; // positions, best first; a later position never beats an equal key
  const xs: number[] = []; // their values
  let bound = largest ? -Infinity : Infinity; // the worst value in a full top
  if (k === 0) return top;
  const sign = largest ? 1 : -1;
  for (let i = 0; i < length; i++) {
    // a full top over every row: skip to the next value past the bound in one small loop (a
    // missing or NaN position is never past it, and the tests below still run for the one found)
    if (rows === null && top.length === k && (i = nextPast(values, sign, sign * bound, i, length)) === length) break;
    const r = rows ? rows[i]! : i;
    if (valid !== null && !valid[r]) continue;
    const x = values[r]!;
    if (x !== x) continue;
    if (top.length === k && !(largest ? x > bound : x < bound)) continue;
    let j = top.length;
    while (j > 0 && (largest ? x > xs[j - 1]! : x < xs[j - 1]!)) j--;
    top.splice(j, 0, i);
    xs.splice(j, 0, x);
    if (top.length > k) {
      top.pop();
      xs.pop();
    }
    if (top.length === k) bound = xs[k - 1]!;
  }
  return top;
}

/** The first position from `from` whose `sign * values[i]` is above `past` (NaN never is), else `n`. */
function nextPast(values: Float64Array, sign: number, past: number, from: number, n: number): number {
  let i = from;
  while (i < n && !(sign * values[i]! > past)) i++;
  return i;
}
