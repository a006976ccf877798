/**
 * Sorting a Series on its typed arrays (typed.ts): positions ordered by the Float64Array (numbers and
 * dates as ms) or by each dictionary string's rank (fast/dictRank.ts), ties by position (the stable
 * order), missing values after (or before) the rest (fast/stableOrder.ts); the sorted Series reads
 * its values from the original when asked and keeps a typed view over the sorted rows;
 * nlargest/nsmallest keep only n candidates. The same answers as order.ts's comparator over values;
 * undefined when the Series has no such view.
 */
import { Series } from './Series.js';
import { typedOf, type DictView, type NumView, type TypedView } from './typed.js';
import { dictRank } from '../fast/dictRank.js';
import { presentCount, sortedPositions } from '../fast/stableOrder.js';

/** Sort keys per position (NaN = missing), or undefined. */
function keysOf(t: TypedView | null, n: number): Float64Array | undefined {
  if (!t || (t.kind !== 'num' && t.kind !== 'dict')) return undefined;
  const keys = new Float64Array(n);
  if (t.kind === 'num') {
    numberKeys(t, keys);
    return keys;
  }
  // strings order by code unit: the dictionary's ranks, kept per session (fast/dictRank.ts)
  const { codes, dict, rows } = t;
  codeKeys(codes, rows, dictRank(dict) ?? sharedRanks(dict), keys);
  return keys;
}

function numberKeys(t: NumView, keys: Float64Array): void {
  const { values, valid, rows } = t;
  for (let i = 0; i < keys.length; i++) {
    const r = rows ? rows[i]! : i;
    keys[i] = valid === null || valid[r] ? values[r]! : NaN;
  }
}

function codeKeys(codes: Int32Array, rows: Uint32Array | null, rank: ArrayLike<number>, keys: Float64Array): void {
  for (let i = 0; i < keys.length; i++) {
    const c = codes[rows ? rows[i]! : i]!;
    keys[i] = c < 0 ? NaN : rank[c]!;
  }
}

/** Ranks of a dictionary that repeats a string (dictRank has none): equal strings share a rank. */
function sharedRanks(dict: readonly string[]): Float64Array {
  const byString = Array.from(dict.keys()).sort((a, b) => (dict[a]! < dict[b]! ? -1 : dict[a]! > dict[b]! ? 1 : 0));
  const rank = new Float64Array(dict.length);
  for (let j = 0; j < byString.length; j++)
    rank[byString[j]!] = j > 0 && dict[byString[j]!] === dict[byString[j - 1]!] ? rank[byString[j - 1]!]! : j;
  return rank;
}

/**
 * `s.sort_values()` on its typed view (stable, missing last unless naFirst), or undefined when `s`
 * has none. No value is read: the result reads each value from `s` at its position when asked, its
 * labels travel in a Uint32Array (a plain array when `s`'s are not one), and its typed view is
 * `s`'s over the sorted rows, so what follows (head, sum, value_counts, another sort) keeps its
 * typed paths.
 */
export function fastSortValues(s: Series, ascending: boolean, naFirst: boolean): Series | undefined {
  const t = typedOf(s);
  const keys = keysOf(t, s.length);
  if (!keys) return undefined;
  const pos = sortedPositions(keys, ascending, naFirst);
  const n = pos.length;
  const rows = new Uint32Array(n);
  composed((t as NumView | DictView).rows, pos, rows);
  const from = s.labels;
  let labels: ArrayLike<number>;
  if (from === null || from instanceof Uint32Array) {
    const l = new Uint32Array(n);
    composed(from, pos, l);
    labels = l;
  } else labels = Array.from(pos, (p) => from[p]!);
  const out = new Series((i) => s.at0(pos[i]!), n, s.name, labels, null, s.dtypeName);
  out.view = { ...(t as NumView | DictView), rows };
  return out;
}

// Each loop over the keys ends its function (docs/architecture.md, "Inside the prelude"): with code
// after it, V8 threw its compile away on every call (sort_values of 219,590 amounts).

/** out[i] = (map ? map[pos[i]] : pos[i]): positions of a view's rows (or labels) in sorted order. */
function composed(map: Uint32Array | null, pos: Uint32Array, out: Uint32Array): void {
  for (let i = 0; i < pos.length; i++) out[i] = map ? map[pos[i]!]! : pos[i]!;
}

/** The positions of present keys sorted by key, ties by position (nlargest/nsmallest of many). */
function sortPresent(keys: Float64Array, ascending: boolean): number[] {
  return Array.from(sortedPositions(keys, ascending, false).subarray(0, presentCount(keys)));
}

/** The first n positions of the stable sort, missing values skipped (nlargest/nsmallest), or undefined. */
export function fastTopPositions(s: Series, n: number, largest: boolean): number[] | undefined {
  if (!(n >= 0)) return undefined;
  const t = typedOf(s);
  if (t && t.kind === 'num' && Math.floor(n) <= 1000) return topNumbers(t, Math.floor(n), largest, s.length);
  const keys = keysOf(t, s.length);
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
