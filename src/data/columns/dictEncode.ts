import type { DictColumn, Utf8Column } from '../../../schema/columnar.js';

/** Most distinct values a dictionary column may have (award_data and CSV tables). */
export const MAX_DICT_SIZE = 65_535;

/** Rows between two beats of dictCodes. */
const BEAT_ROWS = 65_536;

/**
 * Most distinct values a dictionary column of a user's Parquet table may have: high-cardinality
 * text such as a company name over millions of rows stays dictionary codes (Int32), so distinct
 * counts, contains and sorts work on codes and the dictionary, not on one string per row. The
 * isolate decodes a dictionary to strings once (about 40 bytes each: 2^21 values ~ 85 MB of a
 * 512 MB isolate), and each value must still be used twice on average (dictEncode's rule).
 */
export const USER_MAX_DICT_SIZE = 2_097_152;

/**
 * Dictionary-encodes a string column when that pays off: at most `maxDict` distinct values
 * ({@link MAX_DICT_SIZE} by default, {@link USER_MAX_DICT_SIZE} for user tables) and each value
 * used twice on average (distinct <= non-null / 2). Returns null otherwise, stopping as soon as
 * the limit is passed. Values keep first-seen order; null is code -1. `beat` is called every
 * 64Ki rows (a column worker's heartbeat: formats/arrowColumnar/arrowColumn.ts).
 * @example dictEncode(col, nonNull) ?? col
 */
export function dictEncode(
  col: Utf8Column,
  nonNull: number,
  maxDict: number = MAX_DICT_SIZE,
  beat?: () => void,
): DictColumn | null {
  const coded = dictCodes(col, dictLimit(nonNull, maxDict), beat);
  if (!coded) return null;
  const { bytes, offsets } = col;
  return {
    kind: 'dict',
    type: 'string',
    codes: coded.codes,
    ...dictionary(bytes, offsets, coded.firstRow, coded.distinct),
  };
}

/** Most distinct values a column of `nonNull` values may have and still be dictionary-coded. */
export function dictLimit(nonNull: number, maxDict: number = MAX_DICT_SIZE): number {
  return Math.min(maxDict, Math.floor(nonNull / 2));
}

/** A column's dictionary codes before its dictionary is written: each value's hash and first row. */
export interface DictCodes {
  codes: Int32Array;
  /** FNV-1a of each distinct value's bytes, by code. */
  hashes: Int32Array;
  /** The row where each distinct value first occurs, by code. */
  firstRow: Int32Array;
  distinct: number;
}

/**
 * The codes of {@link dictEncode} with its limit given ({@link dictLimit}), or null past the limit.
 * Each part of a CSV read on two threads is coded against the whole column's limit, and the parts'
 * codes are merged by hash (joinColumns.ts). `beat`, when given, is called every BEAT_ROWS rows.
 */
export function dictCodes(col: Utf8Column, limit: number, beat?: () => void): DictCodes | null {
  const { bytes, offsets, valid } = col;
  const n = valid.length;
  const codes = new Int32Array(n);
  // Open addressing over [hash, code + 1] pairs (0 = empty), and a compact copy of each distinct
  // value's bytes: a lookup reads the pair and the copy, a few MB in all for a 250k-value column,
  // not the value's first row in the column (offsets and bytes of the whole column, tens of MB read
  // at random: memory latency per row, docs/benchmarks.md "session 21").
  let cap = 1024;
  let table: Int32Array = new Int32Array(cap * 2);
  let hashes: Int32Array = new Int32Array(256);
  let firstRow: Int32Array = new Int32Array(256);
  let seenOffsets: Int32Array = new Int32Array(257);
  let seen: Uint8Array = new Uint8Array(4096);
  let distinct = 0;
  // in runs of BEAT_ROWS rows, a beat after each when asked (no test per row)
  for (let from = 0; from < n; from += BEAT_ROWS) {
    const to = Math.min(n, from + BEAT_ROWS);
    for (let r = from; r < to; r++) {
      if (valid[r] === 0) {
        codes[r] = -1;
        continue;
      }
      const s = offsets[r];
      const e = offsets[r + 1];
      let h = 0x811c9dc5 | 0; // int32 like the Int32Array it is compared with (an empty value hashes to the seed)
      for (let k = s; k < e; k++) h = Math.imul(h ^ bytes[k], 16777619);
      let slot = h & (cap - 1);
      let found = -1;
      for (;;) {
        const code = table[slot * 2 + 1] - 1;
        if (code < 0) break;
        if (table[slot * 2] === h && sameSeen(seen, seenOffsets, code, bytes, s, e)) {
          found = code;
          break;
        }
        slot = (slot + 1) & (cap - 1);
      }
      if (found >= 0) {
        codes[r] = found;
        continue;
      }
      if (distinct === limit) return null;
      if (distinct === hashes.length) {
        hashes = grow(hashes);
        firstRow = grow(firstRow);
        const o = new Int32Array(hashes.length + 1);
        o.set(seenOffsets);
        seenOffsets = o;
      }
      const at = seenOffsets[distinct];
      if (at + (e - s) > seen.length) {
        const b = new Uint8Array(Math.max(seen.length * 2, at + (e - s)));
        b.set(seen.subarray(0, at));
        seen = b;
      }
      seen.set(bytes.subarray(s, e), at);
      seenOffsets[distinct + 1] = at + (e - s);
      hashes[distinct] = h;
      firstRow[distinct] = r;
      codes[r] = distinct;
      table[slot * 2] = h;
      table[slot * 2 + 1] = ++distinct;
      if (distinct * 2 > cap) {
        cap *= 2;
        table = rehash(hashes, distinct, cap);
      }
    }
    beat?.();
  }
  return { codes, hashes, firstRow, distinct };
}

/** Whether the value of `code` in the compact copy holds the bytes `s..e` of the column. */
function sameSeen(
  seen: Uint8Array,
  seenOffsets: Int32Array,
  code: number,
  bytes: Uint8Array,
  s: number,
  e: number,
): boolean {
  const a = seenOffsets[code];
  if (seenOffsets[code + 1] - a !== e - s) return false;
  for (let k = 0; k < e - s; k++) if (seen[a + k] !== bytes[s + k]) return false;
  return true;
}

function grow(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

function rehash(hashes: Int32Array, distinct: number, cap: number): Int32Array {
  const table = new Int32Array(cap * 2);
  for (let code = 0; code < distinct; code++) {
    let slot = hashes[code] & (cap - 1);
    while (table[slot * 2 + 1] !== 0) slot = (slot + 1) & (cap - 1);
    table[slot * 2] = hashes[code];
    table[slot * 2 + 1] = code + 1;
  }
  return table;
}

function dictionary(bytes: Uint8Array, offsets: Int32Array, firstRow: Int32Array, distinct: number) {
  const dictOffsets = new Int32Array(distinct + 1);
  let total = 0;
  for (let c = 0; c < distinct; c++) {
    total += offsets[firstRow[c] + 1] - offsets[firstRow[c]];
    dictOffsets[c + 1] = total;
  }
  const dictBytes = new Uint8Array(total);
  for (let c = 0; c < distinct; c++) {
    dictBytes.set(bytes.subarray(offsets[firstRow[c]], offsets[firstRow[c] + 1]), dictOffsets[c]);
  }
  return { dictBytes, dictOffsets };
}
