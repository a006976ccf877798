import type { DictColumn, Utf8Column } from '../../../../schema/columnar.js';
import { MAX_DICT_SIZE } from '../../columns/dictEncode.js';
import { PageCorrupt } from './pageErrors.js';

const MAX_BYTES = 0x7fffffff;

/**
 * Builds a string transfer column row by row, in row order, straight from page bytes: values are
 * interned into one column dictionary in first-seen order (a Parquet dictionary page's entries
 * are interned when a row first uses them, so dictionaries of several row groups merge and
 * unused entries never appear). Past MAX_DICT_SIZE distinct values it switches to UTF-8 bytes +
 * offsets. `finish` applies dictEncode's rule (at most MAX_DICT_SIZE distinct values and
 * distinct <= non-null / 2), so the column is the one typedColumn + dictEncode would build.
 * @example const b = new StringBuilder(3); b.add(page, 0, 2); b.nul(); b.add(page, 0, 2); b.finish();
 */
export class StringBuilder {
  private readonly codes: Int32Array;
  private row = 0;
  private nonNull = 0;
  private distinct = 0;
  private dictBytes: Uint8Array = new Uint8Array(1 << 12);
  private dictLength = 0;
  private dictOffsets: Int32Array = new Int32Array(257);
  private hashes: Int32Array = new Int32Array(256);
  private slots: Int32Array = new Int32Array(1024); // code + 1; 0 = empty
  /** Set once the column has more than MAX_DICT_SIZE distinct values. */
  private text: { bytes: Uint8Array; length: number; offsets: Int32Array; valid: Uint8Array } | null = null;

  constructor(private readonly numRows: number) {
    this.codes = new Int32Array(numRows);
  }

  /** Rows appended so far. */
  get rows(): number {
    return this.row;
  }

  /** Appends a null row. */
  nul(): void {
    if (this.row >= this.numRows) throw new PageCorrupt('more values than rows');
    if (this.text) this.text.offsets[this.row + 1] = this.text.length;
    else this.codes[this.row] = -1;
    this.row++;
  }

  /**
   * Appends `buf[s, e)` as the next row. Returns its code in the column dictionary (to cache per
   * Parquet dictionary entry), or -1 once the column is plain text.
   */
  add(buf: Uint8Array, s: number, e: number): number {
    if (this.row >= this.numRows) throw new PageCorrupt('more values than rows');
    this.nonNull++;
    if (this.text) {
      this.appendText(buf, s, e);
      return -1;
    }
    const code = this.intern(buf, s, e);
    if (code < 0) {
      this.toText();
      this.nonNull--;
      return this.add(buf, s, e);
    }
    this.codes[this.row++] = code;
    return code;
  }

  /** Appends a row whose value is already code `code` of the column dictionary (from `add`). */
  addCode(code: number): void {
    if (this.row >= this.numRows) throw new PageCorrupt('more values than rows');
    this.nonNull++;
    this.codes[this.row++] = code;
  }

  /** True once the column has switched to plain text (codes from `add` are then -1). */
  get isText(): boolean {
    return this.text !== null;
  }

  /** The transfer column; every row must have been appended. */
  finish(): DictColumn | Utf8Column {
    if (this.row !== this.numRows) throw new PageCorrupt(`${this.row} values for ${this.numRows} rows`);
    if (!this.text && this.distinct <= Math.min(MAX_DICT_SIZE, Math.floor(this.nonNull / 2))) {
      return { kind: 'dict', type: 'string', codes: this.codes, dictBytes: this.dictBytes.slice(0, this.dictLength), dictOffsets: this.dictOffsets.slice(0, this.distinct + 1) };
    }
    if (!this.text) this.toText();
    const t = this.text!;
    return { kind: 'utf8', type: 'string', bytes: t.bytes.length === t.length ? t.bytes : t.bytes.slice(0, t.length), offsets: t.offsets, valid: t.valid };
  }

  /**
   * Make room for `more` distinct values before they come (a Parquet dictionary page's size), so
   * the hash table is not rebuilt step by step while they are interned.
   */
  reserve(more: number): void {
    if (this.text) return;
    const want = Math.min(MAX_DICT_SIZE, this.distinct + more);
    if (want > this.hashes.length) {
      this.hashes = grow32(this.hashes, want);
      this.dictOffsets = grow32(this.dictOffsets, want + 1);
    }
    while (want * 2 > this.slots.length) this.rehash();
  }

  /** The code of `buf[s, e)`, adding it; -1 when the dictionary is full. */
  private intern(buf: Uint8Array, s: number, e: number): number {
    let h = 0x811c9dc5 | 0; // int32 like the Int32Array it is compared with (an empty value hashes to the seed)
    for (let k = s; k < e; k++) h = Math.imul(h ^ buf[k], 16777619);
    const slots = this.slots;
    const hashes = this.hashes;
    const offsets = this.dictOffsets;
    const len = e - s;
    const mask = slots.length - 1;
    let slot = h & mask;
    for (;;) {
      const code = slots[slot] - 1;
      if (code < 0) break;
      if (hashes[code] === h) {
        const a = offsets[code];
        if (offsets[code + 1] - a === len) {
          const d = this.dictBytes;
          let k = 0;
          while (k < len && d[a + k] === buf[s + k]) k++;
          if (k === len) return code;
        }
      }
      slot = (slot + 1) & mask;
    }
    if (this.distinct === MAX_DICT_SIZE) return -1;
    const code = this.distinct++;
    if (code === this.hashes.length) {
      this.hashes = grow32(this.hashes, this.hashes.length * 2);
      this.dictOffsets = grow32(this.dictOffsets, this.hashes.length + 1);
    }
    this.hashes[code] = h;
    let at = this.dictLength;
    if (at + len > this.dictBytes.length) this.dictBytes = grow8(this.dictBytes, at + len);
    const d = this.dictBytes;
    if (len < 64) for (let k = s; k < e; k++) d[at++] = buf[k];
    else {
      d.set(buf.subarray(s, e), at);
      at += len;
    }
    this.dictLength = at;
    this.dictOffsets[code + 1] = at;
    this.slots[slot] = code + 1;
    if (this.distinct * 2 > this.slots.length) this.rehash();
    return code;
  }

  private rehash(): void {
    const cap = this.slots.length * 2;
    const slots = new Int32Array(cap);
    for (let code = 0; code < this.distinct; code++) {
      let slot = this.hashes[code] & (cap - 1);
      while (slots[slot] !== 0) slot = (slot + 1) & (cap - 1);
      slots[slot] = code + 1;
    }
    this.slots = slots;
  }

  /** Rewrites the rows so far as UTF-8 bytes + offsets; later rows append to them. */
  private toText(): void {
    const offsets = new Int32Array(this.numRows + 1);
    const valid = new Uint8Array(this.numRows);
    this.text = { bytes: new Uint8Array(Math.max(1 << 16, this.dictLength * 2)), length: 0, offsets, valid };
    const rows = this.row;
    this.row = 0;
    for (let r = 0; r < rows; r++) {
      const c = this.codes[r];
      if (c < 0) offsets[r + 1] = this.text.length;
      else this.appendText(this.dictBytes, this.dictOffsets[c], this.dictOffsets[c + 1]);
      this.row = r + 1;
    }
    this.hashes = this.dictOffsets = this.slots = new Int32Array(0);
    this.dictBytes = new Uint8Array(0);
  }

  private appendText(buf: Uint8Array, s: number, e: number): void {
    const t = this.text!;
    const len = e - s;
    if (t.length + len > MAX_BYTES) throw new RangeError('a text column is larger than 2 GiB');
    if (t.length + len > t.bytes.length) t.bytes = grow8(t.bytes, t.length + len);
    if (len < 32) for (let k = 0; k < len; k++) t.bytes[t.length + k] = buf[s + k];
    else t.bytes.set(buf.subarray(s, e), t.length);
    t.length += len;
    t.valid[this.row] = 1;
    t.offsets[this.row + 1] = t.length;
    this.row++;
  }
}

function grow32(a: Int32Array, n: number): Int32Array {
  const b = new Int32Array(n);
  b.set(a.subarray(0, Math.min(a.length, n)));
  return b;
}

function grow8(a: Uint8Array, need: number): Uint8Array {
  const b = new Uint8Array(Math.min(MAX_BYTES, Math.max(need, a.length * 2)));
  b.set(a);
  return b;
}
