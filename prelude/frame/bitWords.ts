/**
 * A table filtered by one byte per storage row (1 keep, 0 drop), the bitmap filled 32 rows at a
 * time and, when the table is not ordered, its row index given at once (series/filterByMask.ts
 * for masks, frame/clean.ts for dropna).
 */
import { BitSet, type ColumnTable } from 'arquero';

/** The rows of an unfiltered `t` whose byte in `bits` (one per storage row) is 1. */
export function keepStorageRows(t: ColumnTable, bits: Uint8Array): ColumnTable {
  const keep = new BitSet(t.totalRows());
  setWords(keep, bits);
  return withIndex(t.create({ filter: keep }), bits);
}

/** Fills a BitSet from mask bytes 32 at a time (Arquero's BitSet keeps its words in `_bits`, row i
 * at bit 0x80000000 >>> (i & 31)). */
function setWords(keep: BitSet, bits: Uint8Array): void {
  const words = (keep as unknown as { _bits?: Uint32Array })._bits;
  if (!(words instanceof Uint32Array) || words.length * 32 < bits.length) {
    for (let i = 0; i < bits.length; i++) if (bits[i]) keep.set(i);
    return;
  }
  const n = bits.length;
  for (let w = 0, i = 0; i < n; w++) {
    let word = 0;
    const end = Math.min(n, i + 32);
    for (let b = 31; i < end; i++, b--) word |= bits[i]! << b; // row i is bit 0x80000000 >>> (i & 31)
    words[w] = word >>> 0;
  }
}

/**
 * Gives a table filtered by whole-table mask bytes its row index at once, from the bytes (one
 * branch-free pass), instead of Arquero finding each set bit when `indices()` is first asked (the
 * columns of the result, their Series and reductions all ask). The index is what `indices()`
 * would compute: the kept rows in storage order (the table is not ordered). Arquero keeps it in
 * `_index`; a table without that field is left alone.
 */
function withIndex(t: ColumnTable, bits: Uint8Array): ColumnTable {
  const holder = t as unknown as { _index?: Uint32Array | null };
  if (holder._index !== null || t.isOrdered()) return t;
  const idx = new Uint32Array(bits.length);
  const k = keptRows(bits, idx);
  if (k !== t.numRows()) return t; // a mask byte other than 0/1: let Arquero count
  holder._index = idx.subarray(0, k);
  return t;
}

/**
 * idx[0..k) = the rows whose byte is 1; returns k. A function that ends with its loop: V8 compiles
 * a long loop while it runs (on-stack replacement) before the code after it has ever run, and that
 * code, reached, throws the compiled loop away again on every later call (Node 20).
 */
function keptRows(bits: Uint8Array, idx: Uint32Array): number {
  let k = 0;
  for (let i = 0; i < bits.length; i++) {
    idx[k] = i;
    k += bits[i]!;
  }
  return k;
}
