import type { DictColumn, Utf8Column } from '../../../../schema/columnar.js';
import { MAX_DICT_SIZE } from '../../columns/dictEncode.js';
import { dictIndices } from './dictIndices.js';
import { copyBytes, resizableBuffer } from './byteCopy.js';
import { PageCorrupt } from './pageErrors.js';
import { viewOf } from '../../columns/hashBytes.js';
import { growU8 } from '../../columns/grow.js';
import { MAX_BYTES, TextDictionary } from '../../columns/textDictionary.js';

/**
 * Builds a string transfer column row by row, in row order, straight from page bytes: values are
 * interned into one column dictionary (TextDictionary) in first-seen order (a Parquet dictionary
 * page's entries are interned when a row first uses them, so dictionaries of several row groups
 * merge and unused entries never appear). Past `maxDict` distinct values, or from the start
 * when the caller has proven the column will not be a dictionary (`startText`), rows are UTF-8
 * bytes + offsets. `finish` applies dictEncode's rule (at most `maxDict` distinct values and
 * distinct <= non-null / 2), so the column is the one typedColumn + dictEncode would build.
 * Values come with their hashBytes hash, computed once by the caller.
 * @example const b = new StringBuilder(3); const v = viewOf(page); b.add(v, page, 0, 2, hashBytes(v, page, 0, 2)); b.nul(); b.finish();
 */
export class StringBuilder {
  private readonly codes: Int32Array;
  private row = 0;
  private nonNull = 0;
  private dict: TextDictionary | null;
  /** Set once the column is plain text (and `dict` is null). */
  private text: { bytes: Uint8Array; length: number; offsets: Int32Array; valid: Uint8Array } | null = null;

  /**
   * @param maxDict the most distinct values of a dictionary column. @default MAX_DICT_SIZE
   * @param ruleRows for a part of a column: the rows whose half bounds a dictionary (else the non-null rows).
   * @param capacity for the first part of a column: the whole column's rows. The codes are then the
   *   start of a buffer that holds them all, which joinColumns fills with the later parts in place
   *   (its rest is never touched before, so it takes no memory until then).
   */
  constructor(
    private readonly numRows: number,
    private readonly maxDict: number = MAX_DICT_SIZE,
    private readonly ruleRows?: number,
    capacity = numRows,
  ) {
    this.codes = new Int32Array(Math.max(numRows, capacity)).subarray(0, numRows);
    this.dict = new TextDictionary(maxDict);
  }

  /** True once the column is plain text (codes from `add` are then -1). */
  get isText(): boolean {
    return this.text !== null;
  }

  /** Appends a null row. */
  nul(): void {
    if (this.row >= this.numRows) throw new PageCorrupt('more values than rows');
    if (this.text) this.text.offsets[this.row + 1] = this.text.length;
    else this.codes[this.row] = -1;
    this.row++;
  }

  /**
   * Appends `buf[s, e)`, whose hashBytes is `h`, as the next row (`view`: a DataView of `buf`). Returns its code in the column
   * dictionary (to cache per Parquet dictionary entry), or -1 once the column is plain text.
   */
  add(view: DataView, buf: Uint8Array, s: number, e: number, h: number): number {
    if (this.row >= this.numRows) throw new PageCorrupt('more values than rows');
    const dict = this.dict;
    if (dict !== null) {
      let code = dict.find(view, buf, s, e, h);
      if (code < 0) code = dict.insert(buf, s, e, h);
      if (code >= 0) {
        this.nonNull++;
        this.codes[this.row++] = code;
        return code;
      }
      this.toText();
    }
    this.nonNull++;
    this.appendText(buf, s, e);
    return -1;
  }

  /** The code of `buf[s, e)` (hash `h`) in the column dictionary, or -1 when it is not there yet (or the column is plain text). */
  codeOf(view: DataView, buf: Uint8Array, s: number, e: number, h: number): number {
    return this.dict === null ? -1 : this.dict.find(view, buf, s, e, h);
  }

  /**
   * Appends `n` rows, none null, from a dictionary-coded page's indices (`buf[pos, end)`: the
   * bit-width byte, then the RLE / bit-packed hybrid) into a Parquet dictionary of `codeOf.length`
   * entries, every one of which already has its column code `codeOf[e]` (`identity`: the code of
   * entry e is e). The indices are decoded straight into the column's codes (each checked against
   * the dictionary, as dictIndices does) and, unless `identity`, replaced by their codes in place:
   * what `addIndexed` writes, without an index array between. Only while the column is a dictionary.
   * @throws {PageCorrupt} as dictIndices.
   */
  addCodedPage(buf: Uint8Array, pos: number, end: number, n: number, codeOf: Int32Array, identity: boolean): void {
    if (this.row + n > this.numRows) throw new PageCorrupt('more values than rows');
    if (this.dict === null) throw new Error('addCodedPage once the column is plain text');
    const at = this.codes.subarray(this.row, this.row + n);
    dictIndices(buf, pos, end, n, codeOf.length, at);
    if (!identity) for (let i = 0; i < n; i++) at[i] = codeOf[at[i]];
    this.row += n;
    this.nonNull += n;
  }

  /** Appends a row whose value is already code `code` of the column dictionary (from `add`). */
  addCode(code: number): void {
    if (this.row >= this.numRows) throw new PageCorrupt('more values than rows');
    this.nonNull++;
    this.codes[this.row++] = code;
  }

  /**
   * Appends one row per index of `idx` into a Parquet dictionary (`buf[begin[e], end[e])`, hash
   * `hashes[e]`), none null: `codeOf[e]` is the entry's column code once a row used it (-1
   * before), filled here as entries are interned. What `addCode` / `add` do row by row, in one
   * loop; past the dictionary's size the rest go on as `add` does (plain text).
   */
  addIndexed(
    idx: Int32Array,
    codeOf: Int32Array,
    view: DataView,
    buf: Uint8Array,
    begin: Int32Array,
    end: Int32Array,
    hashes: Int32Array,
  ): void {
    const n = idx.length;
    if (this.row + n > this.numRows) throw new PageCorrupt('more values than rows');
    const codes = this.codes;
    let k = 0;
    while (k < n && this.dict !== null) {
      // the rows whose entry already has its column code: a load and a store each, nothing else
      // per row (the builder's fields are written once per run of such rows)
      let row = this.row;
      for (; k < n; k++) {
        const c = codeOf[idx[k]];
        if (c < 0) break;
        codes[row++] = c;
      }
      this.nonNull += row - this.row;
      this.row = row;
      if (k === n) return;
      // an entry's first row: interned (add writes the row)
      const e = idx[k++];
      const c = this.add(view, buf, begin[e], end[e], hashes[e]);
      if (c < 0) break; // the column became plain text with this row
      codeOf[e] = c;
    }
    // plain text from row k on
    for (; k < n; k++) this.add(view, buf, begin[idx[k]], end[idx[k]], hashes[idx[k]]);
  }

  /**
   * Appends `rows` rows: a null where `defs[i] === 0`, else the next range `buf[begin[k], end[k])`
   * with its hash `hashes[k]` (what `add` and `nul` do row by row, in one loop).
   */
  addValues(
    buf: Uint8Array,
    begin: Int32Array,
    end: Int32Array,
    hashes: Int32Array,
    defs: Int32Array | null,
    rows: number,
  ): void {
    if (this.row + rows > this.numRows) throw new PageCorrupt('more values than rows');
    let i = 0;
    let k = 0;
    const dict = this.dict;
    if (dict !== null) {
      const view = viewOf(buf);
      const codes = this.codes;
      let row = this.row;
      for (; i < rows; i++) {
        if (defs !== null && defs[i] === 0) {
          codes[row++] = -1;
          continue;
        }
        let code = dict.find(view, buf, begin[k], end[k], hashes[k]);
        if (code < 0) code = dict.insert(buf, begin[k], end[k], hashes[k]);
        if (code < 0) break;
        codes[row++] = code;
        k++;
      }
      this.nonNull += k;
      this.row = row;
      if (i === rows) return;
      this.toText();
    }
    for (; i < rows; i++) {
      if (defs !== null && defs[i] === 0) this.nul();
      else {
        this.nonNull++;
        this.appendText(buf, begin[k], end[k]);
        k++;
      }
    }
  }

  /** Appends one row per range `buf[begin[k], end[k])`, none null; only once the column is plain text. */
  appendAll(buf: Uint8Array, begin: Int32Array, end: Int32Array): void {
    const t = this.text;
    if (!t) throw new Error('appendAll before the column is plain text');
    const n = begin.length;
    if (this.row + n > this.numRows) throw new PageCorrupt('more values than rows');
    let bytes = 0;
    for (let k = 0; k < n; k++) bytes += end[k] - begin[k];
    this.room(bytes);
    const out = t.bytes;
    const outView = viewOf(out);
    const view = viewOf(buf);
    const { offsets, valid } = t;
    let at = t.length;
    let row = this.row;
    for (let k = 0; k < n; k++) {
      at = copyBytes(view, buf, begin[k], end[k], outView, out, at);
      valid[row] = 1;
      offsets[++row] = at;
    }
    t.length = at;
    this.row = row;
    this.nonNull += n;
  }

  /**
   * Makes the column plain text from the first row on (the caller has proven it will not be a
   * dictionary), with room for `bytes` bytes of text.
   */
  startText(bytes: number, growable = false): void {
    if (this.row !== 0 || this.text) throw new Error('startText after the first row');
    this.dict = null;
    const size = Math.min(MAX_BYTES, Math.max(1, bytes));
    this.text = {
      bytes: growable ? growableBytes(size) : new Uint8Array(size),
      length: 0,
      offsets: new Int32Array(this.numRows + 1),
      valid: new Uint8Array(this.numRows),
    };
  }

  /**
   * Make room for `more` distinct values before they come (a Parquet dictionary page's size), so
   * the hash table is not rebuilt step by step while they are interned.
   */
  reserve(more: number): void {
    this.dict?.reserve(more);
  }

  /** The transfer column; every row must have been appended. */
  finish(): DictColumn | Utf8Column {
    if (this.row !== this.numRows) throw new PageCorrupt(`${this.row} values for ${this.numRows} rows`);
    const dict = this.dict;
    if (dict !== null && dict.size <= Math.min(this.maxDict, Math.floor((this.ruleRows ?? this.nonNull) / 2))) {
      return {
        kind: 'dict',
        type: 'string',
        codes: this.codes,
        dictBytes: dict.bytes.slice(0, dict.length),
        dictOffsets: dict.offsets.slice(0, dict.size + 1),
      };
    }
    if (dict !== null) this.toText();
    const t = this.text!;
    return {
      kind: 'utf8',
      type: 'string',
      bytes: t.bytes.length === t.length ? t.bytes : t.bytes.slice(0, t.length),
      offsets: t.offsets,
      valid: t.valid,
    };
  }

  /** Rewrites the rows so far as UTF-8 bytes + offsets; later rows append to them. */
  private toText(): void {
    const dict = this.dict!;
    this.dict = null;
    this.text = {
      bytes: new Uint8Array(Math.max(1 << 16, dict.length * 2)),
      length: 0,
      offsets: new Int32Array(this.numRows + 1),
      valid: new Uint8Array(this.numRows),
    };
    const rows = this.row;
    this.row = 0;
    for (let r = 0; r < rows; r++) {
      const c = this.codes[r];
      if (c < 0) this.nul();
      else this.appendText(dict.bytes, dict.offsets[c], dict.offsets[c + 1]);
    }
  }

  private appendText(buf: Uint8Array, s: number, e: number): void {
    const t = this.text!;
    const len = e - s;
    this.room(len);
    if (len < 32) for (let k = 0; k < len; k++) t.bytes[t.length + k] = buf[s + k];
    else t.bytes.set(buf.subarray(s, e), t.length);
    t.length += len;
    t.valid[this.row] = 1;
    t.offsets[this.row + 1] = t.length;
    this.row++;
  }

  /** Room in the text bytes for `more` bytes after those written. */
  private room(more: number): void {
    const t = this.text!;
    if (t.length + more > MAX_BYTES) throw new RangeError('a text column is larger than 2 GiB');
    if (t.length + more > t.bytes.length) t.bytes = growU8(t.bytes, t.length + more);
  }
}

/**
 * `size` bytes in a resizable ArrayBuffer (up to 2 GiB, reserved as address space only): the text of
 * the first part of a column decoded in parts, which joinColumns grows in place to hold the others
 * rather than copying every part into a new buffer (a transient third copy of a long text column).
 * A plain array where there are no resizable buffers (or no address space).
 */
function growableBytes(size: number): Uint8Array {
  const b = resizableBuffer(size);
  return b ? new Uint8Array(b, 0, size) : new Uint8Array(size);
}
