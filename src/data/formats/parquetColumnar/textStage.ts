import { releaseBuffers } from '../../columns/releaseBuffers.js';
import { MAX_BYTES } from '../../columns/textDictionary.js';
import { copyBytes, resizableBuffer } from './byteCopy.js';
import { PageCorrupt } from './pageErrors.js';
import type { ByteRanges } from './plainBytes.js';

/**
 * The values of a text column's PLAIN and DELTA_LENGTH_BYTE_ARRAY pages, copied out of each page
 * as it comes (stringSink.ts): value bytes back to back and where each ends, so the inflated page
 * is garbage at once instead of being held, with a begin and an end array per page, until the
 * column is built. A column proven to be text then is these bytes (no copy); one that is not is
 * interned from them as it was from the pages. The bytes live in a resizable buffer when the
 * runtime has them (address space reserved, memory used as it grows: never an old and a new copy
 * while growing), else in a plain one that doubles.
 * @example const s = new TextStage(rows); const from = s.addPlain(page, 0, page.length, n); s.ranges(from, n);
 */
export class TextStage {
  /** Value k is `bytes[ends[k], ends[k + 1])`. */
  readonly ends: Int32Array;
  /** Values copied so far. */
  count = 0;
  /** Bytes written so far. */
  length = 0;
  private buffer: ArrayBuffer & { resizable?: boolean; resize?: (n: number) => void; maxByteLength?: number };
  private data: Uint8Array;
  private view: DataView;

  /**
   * @param room the most values the column can hold (its rows, or a part's capacity).
   * @param bound the most bytes its pages can hold (their uncompressed sizes, from the file's
   *   metadata), when known: one plain buffer of that size then (a store into it costs a third of
   *   one into a resizable buffer, and its pages never written are never resident); past it (a
   *   footer that understates its pages) it grows as a plain buffer does.
   */
  constructor(room: number, bound?: number) {
    this.ends = new Int32Array(room + 1);
    const plain = bound !== undefined && Number.isSafeInteger(bound) && bound > 0 ? sized(bound) : null;
    this.buffer = plain ?? resizableBuffer(1 << 16) ?? new ArrayBuffer(1 << 16);
    this.data = new Uint8Array(this.buffer);
    this.view = new DataView(this.buffer);
  }

  /** The bytes written so far (a view of the stage's buffer). */
  get bytes(): Uint8Array {
    return new Uint8Array(this.buffer, 0, this.length);
  }

  /** Whether `more` bytes still fit the 2 GiB a text column may hold. */
  fits(more: number): boolean {
    return this.length + more <= MAX_BYTES;
  }

  /**
   * Copies `n` PLAIN BYTE_ARRAY values (a 4-byte little-endian length, then the bytes) from
   * `buf[pos, stop)`, each length checked against what is left of the page as plainBytes.ts does;
   * returns the index of the first.
   * @throws {PageCorrupt} a length past the page, or fewer than `n` values (plainBytes' messages).
   */
  addPlain(buf: Uint8Array, pos: number, stop: number, n: number): number {
    if (stop > buf.length || n < 0 || n * 4 > stop - pos)
      throw new PageCorrupt(`${n} text values do not fit in the ${stop - pos} bytes left in the page`);
    if (this.count + n > this.ends.length - 1) throw new PageCorrupt('more values than rows');
    // the page's bytes less its length prefixes: an upper bound on what is copied
    this.room(stop - pos - 4 * n);
    const from = this.count;
    const src = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const ends = this.ends;
    let at = this.length;
    for (let i = 0; i < n; i++) {
      if (pos + 4 > stop) throw new PageCorrupt(`the page ends after ${i} of ${n} text values`);
      const len = src.getUint32(pos, true);
      pos += 4;
      if (len > stop - pos)
        throw new PageCorrupt(`a text value of ${len} bytes, with ${stop - pos} bytes left in the page`);
      at = copyBytes(src, buf, pos, pos + len, this.view, this.data, at);
      pos += len;
      ends[from + i + 1] = at;
    }
    this.length = at;
    this.count = from + n;
    return from;
  }

  /** Copies the values `buf[begin[k], end[k])` (already checked against their page); returns the index of the first. */
  addRanges({ buf, begin, end }: ByteRanges): number {
    const n = begin.length;
    if (this.count + n > this.ends.length - 1) throw new PageCorrupt('more values than rows');
    let bytes = 0;
    for (let k = 0; k < n; k++) bytes += end[k] - begin[k];
    this.room(bytes);
    const from = this.count;
    const src = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    let at = this.length;
    for (let k = 0; k < n; k++) {
      at = copyBytes(src, buf, begin[k], end[k], this.view, this.data, at);
      this.ends[from + k + 1] = at;
    }
    this.length = at;
    this.count = from + n;
    return from;
  }

  /**
   * Values [from, from + n) as ranges into the stage (begin and end are views of `ends`, no
   * copy). Their `buf` is the stage's buffer now: call {@link rebind} once every page is in (a
   * stage without resizable buffers moves its bytes as it grows).
   */
  ranges(from: number, n: number): ByteRanges {
    return {
      buf: this.data,
      begin: this.ends.subarray(from, from + n),
      end: this.ends.subarray(from + 1, from + n + 1),
    };
  }

  /** Points `r` (from {@link ranges}) at the stage's bytes as they are now. */
  rebind(r: ByteRanges): void {
    r.buf = this.data;
  }

  /**
   * The bytes written, as the column's text, in the stage's own buffer: a resizable one trimmed to
   * them, a plain one as it is (its room past them never written, so never resident). Either way a
   * first part of a column can be grown in place by joinColumns.ts.
   */
  take(): Uint8Array {
    if (this.buffer.resizable === true) this.buffer.resize!(this.length);
    return new Uint8Array(this.buffer, 0, this.length);
  }

  /** Gives back the stage's memory at once (its bytes are no longer read: the column was built from them). */
  release(): void {
    releaseBuffers([this.buffer]);
    this.length = 0;
  }

  /** Room for `more` bytes after those written. */
  private room(more: number): void {
    const need = this.length + more;
    if (need > MAX_BYTES) throw new RangeError('a text column is larger than 2 GiB');
    if (need <= this.data.length) return;
    const size = Math.min(MAX_BYTES, Math.max(need, Math.floor(this.data.length * 1.5)));
    if (this.buffer.resizable === true && (this.buffer.maxByteLength ?? 0) >= size) {
      // the length-tracking views follow the buffer
      this.buffer.resize!(size);
      return;
    }
    const grown = new ArrayBuffer(Math.max(size, this.data.length * 2));
    new Uint8Array(grown).set(this.data.subarray(0, this.length));
    this.buffer = grown;
    this.data = new Uint8Array(grown);
    this.view = new DataView(grown);
  }
}

/**
 * A plain buffer of `bound` bytes (at most 2 GiB), or null when it cannot be had (a footer that
 * overstates its pages on a host without the address space): the stage then grows as it goes.
 */
function sized(bound: number): ArrayBuffer | null {
  try {
    return new ArrayBuffer(Math.min(bound, MAX_BYTES));
  } catch {
    return null;
  }
}
