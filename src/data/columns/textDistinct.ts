import { isAscii, isUtf8 } from 'node:buffer';
import type { ColumnData } from '../../../schema/columnar.js';
import { utf8Rows } from './utf8Rows.js';

/** Bytes (row bytes + 8 a row) one partition holds, about what stays in a core's L2 cache. */
const PARTITION_BYTES = 256 * 1024;
/** Most partitions per round: their write cursors stay in cache while rows are scattered to them. */
const MAX_PARTITIONS = 4096;
/** Bytes of rows copied per round: a column past it is scattered in several rounds, each re-reading it. */
const ROUND_BYTES = 192 * 1024 * 1024;
/** Rows shorter than this are copied by a byte loop (a `set` of a subarray costs a view each). */
const SHORT_ROW = 32;

/**
 * The distinct values of a utf8 column, counted on the host from its UTF-8 bytes (bridge.textScan
 * `distinct`; docs/dataset.md "How long text reaches the isolate"): `[present, missing]`, the
 * number of distinct non-null strings and 1 when some row is null (else 0), exactly what a count
 * of the decoded strings gives (`new Set(values).size`, pandas' `nunique`, DuckDB's
 * `count(DISTINCT)`): the empty string is a value; a row of valid UTF-8 decodes to a string
 * another row decodes to only when their bytes are equal, and a row that is not valid UTF-8 (or
 * that Node's decoder would change) is counted by the UTF-8 of its decoded text (U+FFFD in place
 * of each invalid sequence, as `textPage` decodes it), so two such rows, or one and a row holding
 * a literal U+FFFD, are one value when their strings are.
 *
 * The rows are hashed and scattered (length, hash, bytes) into partitions by their hash's top bits,
 * each small enough to stay in cache, and each partition is counted with its own open-addressing
 * table, values of equal hash and length compared byte for byte: one sequential read of the column
 * and cache-local work, instead of one table over millions of values whose every probe is a miss
 * (a 20M-row column of 4.9M values). A column larger than ROUND_BYTES is scattered in rounds, a
 * range of partitions each, so the copy held at once stays under it.
 * `layout` sets the partition and round sizes (tests use small ones to reach several partitions
 * and rounds with a few rows).
 * @throws {Error} for a column that is not utf8.
 * @example textDistinct(col) // Int32Array [4898099, 1]
 */
export function textDistinct(
  data: ColumnData,
  layout: { partitionBytes?: number; roundBytes?: number } = {},
): Int32Array {
  const rows = canonicalRows(data);
  const { valid } = rows;
  let missing = 0;
  for (let i = 0; i < valid.length; i++)
    if (!valid[i]) {
      missing = 1;
      break;
    }
  return Int32Array.of(scatterRounds(rows, layout, null), missing);
}

/** Where textCodes wants each row's code (-1 stays on null rows) and each new value's bytes. */
interface CodeSink {
  codes: Int32Array;
  dict: { add(out: Uint8Array, a: number, len: number): number };
}

type Rows = { bytes: Uint8Array; offsets: Int32Array; valid: Uint8Array };

/**
 * The distinct values among the present rows, hashed and scattered into partitions in rounds (see
 * textDistinct); with `sink`, each row's code written to `sink.codes` as its value is found.
 */
function scatterRounds(
  rows: Rows,
  layout: { partitionBytes?: number; roundBytes?: number },
  sink: CodeSink | null,
): number {
  const partitionBytes = layout.partitionBytes ?? PARTITION_BYTES;
  const roundBytes = layout.roundBytes ?? ROUND_BYTES;
  const n = rows.valid.length;
  const { bytes, offsets, valid } = rows;
  // a record is (length, hash[, row]) then the bytes
  const head = sink ? 12 : 8;
  let present = 0;
  let rowBytes = 0;
  for (let i = 0; i < n; i++) {
    if (valid[i]) {
      present++;
      rowBytes += offsets[i + 1]! - offsets[i]!;
    }
  }
  if (present === 0) return 0;
  const total = rowBytes + head * present;
  let bits = 0;
  while (bits < 30 && total / 2 ** bits > partitionBytes) bits++;
  const parts = 2 ** bits;
  // hashes once: each round re-reads them instead of the bytes to pick its rows
  const hashes = new Int32Array(n);
  const sizes = new Float64Array(parts);
  const shift = 32 - bits;
  for (let i = 0; i < n; i++) {
    if (!valid[i]) continue;
    const a = offsets[i]!;
    const b = offsets[i + 1]!;
    const h = hashRow(bytes, a, b);
    hashes[i] = h;
    if (bits > 0) sizes[h >>> shift]! += b - a + head;
    else sizes[0]! += b - a + head;
  }
  let distinct = 0;
  for (let first = 0; first < parts;) {
    // the partitions of this round: at most MAX_PARTITIONS, their rows at most ROUND_BYTES (one at least)
    let last = first;
    let bytesIn = 0;
    while (last < parts && last - first < MAX_PARTITIONS && (last === first || bytesIn + sizes[last]! <= roundBytes))
      bytesIn += sizes[last++]!;
    distinct += countRound(rows, hashes, sizes, first, last, shift, bits, bytesIn, sink);
    first = last;
  }
  return distinct;
}

/** A utf8 column's dictionary form built on the host (textCodes): one code per distinct decoded string. */
export interface TextCodes {
  kind: 'dict';
  type: 'string';
  /** Per row the code of its string, -1 for a null row; codes numbered in order of first appearance. */
  codes: Int32Array;
  /** Each distinct string's UTF-8 (well-formed: an invalid row's is the UTF-8 of its decoded text), in code order. */
  dictBytes: Uint8Array;
  dictOffsets: Int32Array;
  /**
   * Each entry's place among the entries in UTF-16 code-unit order (how `<` and a plain `sort()`
   * order the decoded strings), or absent when some entry holds a character outside the BMP (its
   * UTF-8 order then differs): the guest's group orders read it instead of sorting the strings.
   */
  ranks?: Int32Array;
}

/**
 * The dictionary form of a utf8 column, built on the host from its UTF-8 bytes (bridge.textCodes;
 * docs/dataset.md "Distinct counts"): what a group-by, `value_counts()` or `unique()` of a text
 * column past the dictionary cap reads instead of a string per row. Two rows share a code exactly
 * when their decoded strings are equal (textDistinct's rule: invalid UTF-8 by the UTF-8 of its
 * U+FFFD text), so the guest's dictionary paths (one code per string) answer as its string paths
 * do; the codes are numbered in order of first appearance (row order), null rows -1. The rows are
 * hashed and scattered into cache-sized partitions as textDistinct counts them, each row's code
 * written back as its partition's table finds it, then renumbered in one pass over the rows.
 * `layout` as textDistinct's.
 * @throws {Error} for a column that is not utf8.
 * @example textCodes(col).codes // Int32Array [0, 1, 0, -1, ...]
 */
export function textCodes(data: ColumnData, layout: { partitionBytes?: number; roundBytes?: number } = {}): TextCodes {
  const rows = canonicalRows(data);
  const n = rows.valid.length;
  const codes = new Int32Array(n).fill(-1);
  const dict = new DictSink();
  scatterRounds(rows, layout, { codes, dict });
  const coded = firstAppearance(codes, dict);
  const ranks = byteRanks(coded.dictBytes, coded.dictOffsets);
  return ranks ? { ...coded, ranks } : coded;
}

/** Ranges of at most this many entries are sorted by insertion, not by another bucket pass. */
const SMALL_RANGE = 24;

/**
 * The rank of each entry (k: dictBytes[dictOffsets[k], dictOffsets[k + 1])) in byte order, which
 * for well-formed UTF-8 is code point order, and that is UTF-16 code-unit order unless some entry
 * holds a 4-byte sequence (a surrogate pair sorts below U+E000-U+FFFF): null then. An MSD radix
 * sort of the entries' indices, a byte position at a time (an entry that ends sorts first), ranges
 * of a few entries by insertion; no string is made.
 */
export function byteRanks(bytes: Uint8Array, offsets: Int32Array): Int32Array | null {
  const d = offsets.length - 1;
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0xf0) return null;
  const order = new Int32Array(d);
  for (let k = 0; k < d; k++) order[k] = k;
  const spare = new Int32Array(d);
  const count = new Int32Array(258);
  // pending ranges: lo, hi, depth
  const stack: number[] = [0, d, 0];
  while (stack.length > 0) {
    const depth = stack.pop()!;
    const hi = stack.pop()!;
    const lo = stack.pop()!;
    if (hi - lo <= SMALL_RANGE) {
      insertionSort(bytes, offsets, order, lo, hi, depth);
      continue;
    }
    count.fill(0);
    // bucket 0: ended before `depth`; bucket b + 1: byte b at `depth`
    for (let j = lo; j < hi; j++) {
      const k = order[j]!;
      const at = offsets[k]! + depth;
      count[(at < offsets[k + 1]! ? bytes[at]! + 1 : 0) + 1]!++;
    }
    for (let b = 0; b < 257; b++) count[b + 1]! += count[b]!;
    for (let j = lo; j < hi; j++) {
      const k = order[j]!;
      const at = offsets[k]! + depth;
      spare[lo + count[at < offsets[k + 1]! ? bytes[at]! + 1 : 0]!++] = k;
    }
    order.set(spare.subarray(lo, hi), lo);
    // count[b] is now the end of bucket b (relative to lo); bucket 0 holds equal entries: done
    for (let b = 1; b < 257; b++) {
      const s = lo + count[b - 1]!;
      const e = lo + count[b]!;
      if (e - s > 1) stack.push(s, e, depth + 1);
    }
  }
  const ranks = new Int32Array(d);
  for (let j = 0; j < d; j++) ranks[order[j]!] = j;
  return ranks;
}

/** Sorts order[lo, hi) by the entries' bytes from `depth` on (they agree before it). */
function insertionSort(
  bytes: Uint8Array,
  offsets: Int32Array,
  order: Int32Array,
  lo: number,
  hi: number,
  depth: number,
): void {
  for (let j = lo + 1; j < hi; j++) {
    const k = order[j]!;
    let i = j - 1;
    while (i >= lo && compareFrom(bytes, offsets, order[i]!, k, depth) > 0) {
      order[i + 1] = order[i]!;
      i--;
    }
    order[i + 1] = k;
  }
}

/** Byte order of entries a and b from `depth` on: negative, 0 or positive. */
function compareFrom(bytes: Uint8Array, offsets: Int32Array, a: number, b: number, depth: number): number {
  const ea = offsets[a + 1]!;
  const eb = offsets[b + 1]!;
  let i = offsets[a]! + depth;
  let j = offsets[b]! + depth;
  for (; i < ea && j < eb; i++, j++) if (bytes[i] !== bytes[j]) return bytes[i]! - bytes[j]!;
  return ea - i - (eb - j);
}

/** Growing UTF-8 of the distinct values found, in the order found (the codes as first given). */
class DictSink {
  bytes = new Uint8Array(1024);
  offsets = new Int32Array(256);
  size = 0;

  /** Appends out[a, a + len) as the next value; returns its code. */
  add(out: Uint8Array, a: number, len: number): number {
    const end = this.offsets[this.size]! + len;
    if (end > this.bytes.length) {
      const grown = new Uint8Array(Math.max(end, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.offsets[this.size]!));
      this.bytes = grown;
    }
    if (this.size + 2 > this.offsets.length) {
      const grown = new Int32Array(this.offsets.length * 2);
      grown.set(this.offsets);
      this.offsets = grown;
    }
    const at = this.offsets[this.size]!;
    const bytes = this.bytes;
    if (len < SHORT_ROW) for (let k = 0; k < len; k++) bytes[at + k] = out[a + k]!;
    else bytes.set(out.subarray(a, a + len), at);
    this.offsets[this.size + 1] = end;
    return this.size++;
  }
}

/** The codes renumbered in order of first appearance (in place) with the dictionary in that order. */
function firstAppearance(codes: Int32Array, dict: DictSink): TextCodes {
  const size = dict.size;
  const remap = new Int32Array(size).fill(-1);
  const order = new Int32Array(size);
  let next = 0;
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    if (c < 0) continue;
    let r = remap[c]!;
    if (r < 0) {
      r = remap[c] = next;
      order[next++] = c;
    }
    codes[i] = r;
  }
  const from = dict.offsets;
  const dictOffsets = new Int32Array(size + 1);
  for (let k = 0; k < size; k++) dictOffsets[k + 1] = dictOffsets[k]! + (from[order[k]! + 1]! - from[order[k]!]!);
  const dictBytes = new Uint8Array(dictOffsets[size]!);
  const src = dict.bytes;
  for (let k = 0; k < size; k++) {
    const a = from[order[k]!]!;
    const len = from[order[k]! + 1]! - a;
    const at = dictOffsets[k]!;
    if (len < SHORT_ROW) for (let j = 0; j < len; j++) dictBytes[at + j] = src[a + j]!;
    else dictBytes.set(src.subarray(a, a + len), at);
  }
  return { kind: 'dict', type: 'string', codes, dictBytes, dictOffsets };
}

/** Scatters the rows of partitions [first, last) into one buffer and counts each partition's distinct values. */
function countRound(
  rows: Rows,
  hashes: Int32Array,
  sizes: Float64Array,
  first: number,
  last: number,
  shift: number,
  bits: number,
  bytesIn: number,
  sink: CodeSink | null,
): number {
  const { bytes, offsets, valid } = rows;
  const head = sink ? 12 : 8;
  const count = last - first;
  const out = new Uint8Array(bytesIn);
  const words = new DataView(out.buffer);
  const cursor = new Float64Array(count);
  const starts = new Float64Array(count + 1);
  for (let p = 0; p < count; p++) starts[p + 1] = starts[p]! + sizes[first + p]!;
  cursor.set(starts.subarray(0, count));
  const n = valid.length;
  for (let i = 0; i < n; i++) {
    if (!valid[i]) continue;
    const h = hashes[i]!;
    const part = (bits > 0 ? h >>> shift : 0) - first;
    if (part < 0 || part >= count) continue;
    const a = offsets[i]!;
    const len = offsets[i + 1]! - a;
    let at = cursor[part]!;
    words.setInt32(at, len, true);
    words.setInt32(at + 4, h, true);
    if (sink) words.setInt32(at + 8, i, true);
    at += head;
    if (len < SHORT_ROW) for (let k = 0; k < len; k++) out[at + k] = bytes[a + k]!;
    else out.set(bytes.subarray(a, a + len), at);
    cursor[part] = at + len;
  }
  let distinct = 0;
  let slots: Int32Array = new Int32Array(1024);
  let ids: Int32Array = new Int32Array(sink ? 1024 : 0);
  for (let p = 0; p < count; p++) {
    const s = starts[p]!;
    const e = starts[p + 1]!;
    if (e === s) continue;
    if (e - s > MAX_TABLE_SPAN) {
      distinct += countByMap(out, words, s, e, sink);
      continue;
    }
    const counted = countPartition(out, words, s, e, slots, ids, sink);
    distinct += counted.distinct;
    slots = counted.slots;
    ids = counted.ids;
  }
  return distinct;
}

/** Partitions longer than this (one value on millions of rows) are counted with a Map: their offsets pass an Int32. */
const MAX_TABLE_SPAN = 2 ** 30;

/**
 * Distinct values among the rows (length, hash[, row], bytes) in out[s, e): an open-addressing
 * table of row positions (relative to s), at most half full, doubled as it fills; with `sink`, a
 * parallel table of each slot's code, and each row's code written out. Returns the tables for reuse.
 */
function countPartition(
  out: Uint8Array,
  words: DataView,
  s: number,
  e: number,
  table: Int32Array,
  codeTable: Int32Array,
  sink: CodeSink | null,
): { distinct: number; slots: Int32Array; ids: Int32Array } {
  const head = sink ? 12 : 8;
  let slots = table;
  let ids = codeTable;
  let size = 1024;
  slots.fill(-1, 0, size);
  let mask = size - 1;
  let distinct = 0;
  for (let at = s; at < e;) {
    const len = words.getInt32(at, true);
    const h = words.getInt32(at + 4, true);
    let slot = h & mask;
    for (;;) {
      const other = slots[slot]!;
      if (other < 0) {
        slots[slot] = at - s;
        distinct++;
        if (sink) sink.codes[words.getInt32(at + 8, true)] = ids[slot] = sink.dict.add(out, at + head, len);
        break;
      }
      const o = other + s;
      if (
        words.getInt32(o + 4, true) === h &&
        words.getInt32(o, true) === len &&
        sameBytes(out, o + head, at + head, len)
      ) {
        if (sink) sink.codes[words.getInt32(at + 8, true)] = ids[slot]!;
        break;
      }
      slot = (slot + 1) & mask;
    }
    at += head + len;
    if (2 * distinct > size) {
      const old = slots.slice(0, size);
      const oldIds = sink ? ids.slice(0, size) : ids;
      size *= 2;
      mask = size - 1;
      if (slots.length < size) slots = new Int32Array(size);
      if (sink && ids.length < size) ids = new Int32Array(size);
      slots.fill(-1, 0, size);
      for (let k = 0; k < old.length; k++) {
        const rel = old[k]!;
        if (rel < 0) continue;
        let j = words.getInt32(s + rel + 4, true) & mask;
        while (slots[j]! >= 0) j = (j + 1) & mask;
        slots[j] = rel;
        if (sink) ids[j] = oldIds[k]!;
      }
    }
  }
  return { distinct, slots, ids };
}

/** countPartition for a partition past MAX_TABLE_SPAN: its values as Latin-1 keys (one character per byte) of a Map. */
function countByMap(out: Uint8Array, words: DataView, s: number, e: number, sink: CodeSink | null): number {
  const head = sink ? 12 : 8;
  const seen = new Map<string, number>();
  const buf = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  for (let at = s; at < e;) {
    const len = words.getInt32(at, true);
    const key = buf.toString('latin1', at + head, at + head + len);
    let code = seen.get(key);
    if (code === undefined) {
      code = sink ? sink.dict.add(out, at + head, len) : seen.size;
      seen.set(key, code);
    }
    if (sink) sink.codes[words.getInt32(at + 8, true)] = code;
    at += head + len;
  }
  return seen.size;
}

function sameBytes(out: Uint8Array, a: number, b: number, len: number): boolean {
  for (let k = 0; k < len; k++) if (out[a + k] !== out[b + k]) return false;
  return true;
}

/** FNV-1a over the row's bytes, then mixed (murmur3's finalizer) so the top bits pick partitions evenly. */
function hashRow(bytes: Uint8Array, a: number, b: number): number {
  let h = 0x811c9dc5 ^ (b - a);
  for (let k = a; k < b; k++) h = Math.imul(h ^ bytes[k]!, 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Rows checked together for well-formed UTF-8 before any row of them is checked alone. */
const CHECK_ROWS = 4096;

/**
 * The column's rows as the bytes whose equality is the decoded strings' equality: the column itself
 * when every row is well-formed UTF-8 (the common case, checked natively over the whole buffer),
 * else a copy in which each row Node's decoder would change is the UTF-8 of its decoded text (runs
 * of rows found well-formed together, 4,096 at a time, are copied as they are in one call).
 */
function canonicalRows(data: ColumnData): { bytes: Uint8Array; offsets: Int32Array; valid: Uint8Array } {
  const n = data.kind === 'utf8' ? data.valid.length : 0;
  const { bytes, offsets, valid, buf, base, stop } = utf8Rows(data, 0, n, 'textDistinct');
  const all = buf.subarray(base, stop);
  if (isAscii(all)) return { bytes, offsets, valid };
  if (isUtf8(all) && rowsStartOnCharacters(bytes, offsets, 0, n)) return { bytes, offsets, valid };
  const fixes = new Map<number, Buffer>();
  let grow = 0;
  for (let s = 0; s < n; s += CHECK_ROWS) {
    const e = Math.min(n, s + CHECK_ROWS);
    if (isUtf8(buf.subarray(offsets[s]!, offsets[e]!)) && rowsStartOnCharacters(bytes, offsets, s, e)) continue;
    for (let i = s; i < e; i++) {
      const a = offsets[i]!;
      const b = offsets[i + 1]!;
      if (!valid[i] || isUtf8(buf.subarray(a, b))) continue;
      const fixed = Buffer.from(buf.toString('utf8', a, b), 'utf8');
      fixes.set(i, fixed);
      grow += fixed.length - (b - a);
    }
  }
  const out = new Uint8Array(stop - base + grow);
  const at = new Int32Array(n + 1);
  let from = base; // start of the run of source bytes not copied yet
  let to = 0;
  for (let i = 0; i < n; i++) {
    at[i] = to + (offsets[i]! - from);
    const fixed = fixes.get(i);
    if (!fixed) continue;
    out.set(bytes.subarray(from, offsets[i]!), to);
    to += offsets[i]! - from;
    out.set(fixed, to);
    to += fixed.length;
    from = offsets[i + 1]!;
  }
  out.set(bytes.subarray(from, stop), to);
  at[n] = to + (stop - from);
  return { bytes: out, offsets: at, valid };
}

/** True when no non-empty row of [s, e) begins with a UTF-8 continuation byte (each row of a valid span is then valid). */
function rowsStartOnCharacters(bytes: Uint8Array, offsets: Int32Array, s: number, e: number): boolean {
  for (let i = s; i < e; i++) {
    const a = offsets[i]!;
    if (a < offsets[i + 1]! && (bytes[a]! & 0xc0) === 0x80) return false;
  }
  return true;
}
