/**
 * A table filtered by one byte per storage row (1 keep, 0 drop), the bitmap filled 32 rows at a
 * time and, when the table is not ordered, its row index given at once (series/filterByMask.ts
 * for masks, frame/clean.ts for dropna).
 */
import { BitSet, type ColumnTable } from 'arquero';
import { ReflectApply, TypedArraySet } from '../intrinsics.js';
import { noteKeptFilter } from './keptFilterRows.js';

// copies through the TypedArray `set` captured when the prelude loaded: a run may replace `slice` or
// `set` on the prototype, and a kept array must never be the one handed out (fast/filterKept.ts)
function copyOf(a: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length);
  ReflectApply(TypedArraySet, out, [a]);
  return out;
}

/** The rows of an unfiltered `t` whose byte in `bits` (one per storage row, each 0 or 1) is 1. */
export function keepStorageRows(t: ColumnTable, bits: Uint8Array): ColumnTable {
  const keep = new BitSet(t.totalRows());
  const words = setWords(keep, bits);
  const out = t.create({ filter: keep });
  return words === null ? out : withIndex(out, words);
}

/**
 * The filter words and row index of a table `keepStorageRows` made, copied (kept by fast/filterKept.ts
 * to make the same table again), or null when its BitSet has no words or the index is not built.
 */
export function storageWords(t: ColumnTable): { words: Uint32Array; index: Uint32Array } | null {
  const words = (t.mask() as unknown as { _bits?: Uint32Array } | null)?._bits;
  const index = (t as unknown as { _index?: Uint32Array | null })._index;
  if (!(words instanceof Uint32Array) || !(index instanceof Uint32Array)) return null;
  return { words: copyOf(words), index: copyOf(index) };
}

/**
 * The table `keepStorageRows(t, bits)` made for an unfiltered, unordered `t`, from the words and index
 * `storageWords` copied off it: a fresh copy of the words and the index lent, copied when first read
 * (frame/keptFilterRows.ts: both the table's own), no pass over the rows, and its row count from the
 * index (createCounted), not from a pass over the words.
 */
export function keepStorageWords(t: ColumnTable, words: Uint32Array, index: Uint32Array): ColumnTable {
  const keep = new BitSet(t.totalRows());
  const own = (keep as unknown as { _bits?: Uint32Array })._bits;
  if (!(own instanceof Uint32Array) || own.length !== words.length) return t.create({ filter: bitsOf(keep, words) });
  ReflectApply(TypedArraySet, own, [words]);
  const out = createCounted(t, keep, index.length);
  // the index lent, copied when first read; the rows answers may be kept for (frame/keptFilterRows.ts)
  noteKeptFilter(out, keep, words, index);
  return out;
}

/**
 * `t.create({ filter: keep })` for a BitSet whose count is known: the row index of an unordered
 * table lists every set bit, so its length is what Arquero's constructor would count with a step per
 * set bit (BitSet#count, asked once by Table's constructor: 33,173 steps for `Award Amount > 1e6`).
 * The count is lent to `keep` as an own `count` for that one call and removed at it, or after
 * `create` when nothing asked: the mask a run reads is Arquero's, its count() a count of its bits.
 */
function createCounted(t: ColumnTable, keep: BitSet, count: number): ColumnTable {
  return createWithCount(t, { filter: keep }, keep, count);
}

/**
 * `t.create(options)` whose filter (`options.filter`, or else `t`'s own BitSet) is `keep`, known to
 * hold `count` rows: the count lent as createCounted does (a groupby's table over a kept filter).
 */
export function createWithCount(t: ColumnTable, options: object, keep: BitSet, count: number): ColumnTable {
  lent = keep;
  lentCount = count;
  const own = keep as unknown as { count?: () => number };
  own.count = countLent;
  try {
    return t.create(options);
  } finally {
    if (lent !== null) {
      lent = null;
      delete own.count;
    }
  }
}

let lent: BitSet | null = null;
let lentCount = 0;
const bitSetCount = BitSet.prototype.count;

/** The lent count, once, for the BitSet it was lent to (any other call counts as Arquero does). */
function countLent(this: BitSet): number {
  if (this !== lent) return ReflectApply(bitSetCount, this, []) as number;
  lent = null;
  delete (this as unknown as { count?: unknown }).count;
  return lentCount;
}

/** `keep` with the rows of `words` set one by one (a BitSet whose words differ from Arquero's). */
function bitsOf(keep: BitSet, words: Uint32Array): BitSet {
  for (let w = 0; w < words.length; w++)
    for (let b = 0; b < 32; b++) if (words[w]! & (0x80000000 >>> b)) keep.set((w << 5) + b);
  return keep;
}

/** True when a Uint32Array over bytes b0..b3 reads b0 as its low byte (every platform V8 runs on today). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Fills a BitSet from mask bytes (Arquero's BitSet keeps its words in `_bits`, row i at bit
 * 0x80000000 >>> (i & 31)); returns the words, or null when the BitSet has none (filled bit by bit).
 * Four bytes at a time when they are aligned: a multiply gathers the low bits of four 0/1 bytes
 * into a nibble (0x08040201 puts byte j's bit at 27 - j, and no two partial products meet), eight
 * nibbles a word (about 7x the speed of a shift per row, in plain Node 20).
 */
function setWords(keep: BitSet, bits: Uint8Array): Uint32Array | null {
  const words = (keep as unknown as { _bits?: Uint32Array })._bits;
  if (!(words instanceof Uint32Array) || words.length * 32 < bits.length) {
    for (let i = 0; i < bits.length; i++) if (bits[i]) keep.set(i);
    return null;
  }
  const n = bits.length;
  let i = 0;
  if (LITTLE_ENDIAN && (bits.byteOffset & 3) === 0) {
    const full = n >>> 5;
    packWords(new Uint32Array(bits.buffer, bits.byteOffset, full * 8), words, full);
    i = full * 32;
  }
  shiftWords(bits, words, i, n);
  return words;
}

function packWords(quads: Uint32Array, words: Uint32Array, full: number): void {
  for (let w = 0; w < full; w++) {
    const o = w << 3;
    words[w] =
      ((((Math.imul(quads[o]!, 0x08040201) >>> 24) & 15) << 28) |
        (((Math.imul(quads[o + 1]!, 0x08040201) >>> 24) & 15) << 24) |
        (((Math.imul(quads[o + 2]!, 0x08040201) >>> 24) & 15) << 20) |
        (((Math.imul(quads[o + 3]!, 0x08040201) >>> 24) & 15) << 16) |
        (((Math.imul(quads[o + 4]!, 0x08040201) >>> 24) & 15) << 12) |
        (((Math.imul(quads[o + 5]!, 0x08040201) >>> 24) & 15) << 8) |
        (((Math.imul(quads[o + 6]!, 0x08040201) >>> 24) & 15) << 4) |
        ((Math.imul(quads[o + 7]!, 0x08040201) >>> 24) & 15)) >>>
      0;
  }
}

/** Rows from..n a shift per row (the rows past the last whole word, or every row when unaligned). */
function shiftWords(bits: Uint8Array, words: Uint32Array, from: number, n: number): void {
  for (let w = from >>> 5, i = from; i < n; w++) {
    let word = 0;
    const end = Math.min(n, i + 32);
    for (let b = 31; i < end; i++, b--) word |= bits[i]! << b; // row i is bit 0x80000000 >>> (i & 31)
    words[w] = word >>> 0;
  }
}

/**
 * Gives a table filtered by whole-table mask bytes its row index at once, from the filter's words
 * (a step per kept row and per word), instead of Arquero finding each set bit when `indices()` is
 * first asked (the columns of the result, their Series and reductions all ask). The index is what
 * `indices()` would compute: the kept rows in storage order (the table is not ordered). Arquero
 * keeps it in `_index`; a table without that field is left alone.
 */
function withIndex(t: ColumnTable, words: Uint32Array): ColumnTable {
  const holder = t as unknown as { _index?: Uint32Array | null };
  if (holder._index !== null || t.isOrdered()) return t;
  const idx = new Uint32Array(t.numRows());
  const k = keptRows(words, idx);
  if (k !== idx.length) return t; // not the filter's count: let Arquero find the rows
  holder._index = idx;
  return t;
}

/**
 * idx[0..k) = the rows whose bit is set, in row order; returns k (a write past idx's end is dropped,
 * and the caller sees k too large). A function that ends with its
 * loop: V8 compiles a long loop while it runs (on-stack replacement) before the code after it has
 * ever run, and that code, reached, throws the compiled loop away again on every later call (Node 20).
 */
function keptRows(words: Uint32Array, idx: Uint32Array): number {
  let k = 0;
  for (let w = 0; w < words.length; w++) {
    let x = words[w]!;
    const base = w << 5;
    while (x !== 0) {
      const b = Math.clz32(x);
      idx[k++] = base + b;
      x ^= 0x80000000 >>> b;
    }
  }
  return k;
}

/**
 * Gives a filtered, unordered table whose row index Arquero has not built yet that index, read from
 * its filter's words (what `indices()` computes bit by bit: the set bits in row order), before a
 * fast path asks for it (a groupby or rollup after a filter: Arquero's search of each set bit was a
 * tenth of a warm filter-groupby-count).
 */
export function indexFilteredRows(t: ColumnTable): void {
  const holder = t as unknown as { _index?: Uint32Array | null };
  if (holder._index !== null || !t.isFiltered() || t.isOrdered()) return;
  const words = (t.mask() as unknown as { _bits?: Uint32Array } | null)?._bits;
  if (!(words instanceof Uint32Array)) return;
  withIndex(t, words);
}
