/**
 * The last few large sorts of the session, kept with their exact input: a sort asked again of the same
 * keys (bit for bit, -0 apart from 0) reads the answer it gave before. A program re-run in a warm
 * session (an agent re-running or extending its question) sorts the same column's numbers each time;
 * comparing the keys costs a fraction of sorting them. The answer is a pure function of the keys, so
 * a hit is exact by construction. Only sorts of MEMO_MIN_LENGTH to MEMO_MAX_LENGTH keys are kept, at
 * most MEMO_ENTRIES of them (16 bytes per key held at most: 32 MB for the largest two).
 */
import { HAND_SORT_MEMO_ENTRIES, HAND_SORT_MEMO_MAX_LENGTH, HAND_SORT_MEMO_MIN_LENGTH } from '../../schema/handSort.js';

/** What is kept: the sorted numbers, or the stable positions by key; ascending or descending. */
export type SortTag = 'values-asc' | 'values-desc' | 'order-asc' | 'order-desc';

interface Entry {
  tag: SortTag;
  input: Uint32Array;
  answer: Float64Array | Uint32Array;
}

/** Most recent first. */
const entries: Entry[] = [];

/** Whether `keys` is one the memo takes. */
function keepable(keys: Float64Array): boolean {
  return keys.length >= HAND_SORT_MEMO_MIN_LENGTH && keys.length <= HAND_SORT_MEMO_MAX_LENGTH;
}

/** The bits of `keys` (two words per key): equal bits, equal keys, -0 apart from 0. */
function bits(keys: Float64Array): Uint32Array {
  return new Uint32Array(keys.buffer, keys.byteOffset, keys.length * 2);
}

/** The answer kept for exactly these keys and tag (read only), or undefined. */
export function keptSort(keys: Float64Array, tag: 'values-asc' | 'values-desc'): Float64Array | undefined;
export function keptSort(keys: Float64Array, tag: 'order-asc' | 'order-desc'): Uint32Array | undefined;
export function keptSort(keys: Float64Array, tag: SortTag): Float64Array | Uint32Array | undefined {
  if (!keepable(keys)) return undefined;
  const b = bits(keys);
  for (let e = 0; e < entries.length; e++) {
    const entry = entries[e]!;
    if (entry.tag !== tag || entry.input.length !== b.length || !sameWords(entry.input, b)) continue;
    for (let j = e; j > 0; j--) entries[j] = entries[j - 1]!;
    entries[0] = entry;
    return entry.answer;
  }
  return undefined;
}

/** Keeps `answer` as the sort of the keys `input` (both handed over, never written again: not copied). */
export function keepSort(input: Float64Array, tag: SortTag, answer: Float64Array | Uint32Array): void {
  if (!keepable(input)) return;
  // the oldest falls off; no array method is called (a run may have replaced them)
  const n = entries.length < HAND_SORT_MEMO_ENTRIES ? entries.length + 1 : HAND_SORT_MEMO_ENTRIES;
  for (let j = n - 1; j > 0; j--) entries[j] = entries[j - 1]!;
  entries[0] = { tag, input: bits(input), answer };
}

function sameWords(a: Uint32Array, b: Uint32Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
