/**
 * A growing little-endian byte buffer: the one place the Parquet writer puts bytes. Grows by
 * doubling, so a file of N bytes costs O(N) copies in total; typed-array bodies go in with one
 * `set` (a memcpy), never byte by byte.
 */
export class ByteSink {
  /** The bytes written so far are `buf[0..pos)`. */
  buf: Uint8Array;
  pos = 0;

  /** The most bytes this sink may hold; past it `overLimit` (which throws) is called before allocating. */
  private limit = Infinity;
  private overLimit: ((bytes: number) => void) | null = null;
  /** min(buf.length, limit): where `ensure` must look further. */
  private end: number;

  constructor(capacity = 1 << 16) {
    this.buf = new Uint8Array(capacity);
    this.end = capacity;
  }

  /** Caps the sink (Infinity: none); `overLimit` must throw. */
  setLimit(bytes: number, overLimit: ((bytes: number) => void) | null): void {
    this.limit = bytes;
    this.overLimit = overLimit;
    this.end = Math.min(this.buf.length, bytes);
  }

  /** Makes room for `n` more bytes (the check inlines; growing does not). */
  ensure(n: number): void {
    if (this.pos + n > this.end) this.grow(this.pos + n);
  }

  private grow(need: number): void {
    if (need > this.limit) {
      this.overLimit?.(need);
      throw new RangeError(`a buffer limited to ${this.limit} bytes needs ${need}`);
    }
    if (need <= this.buf.length) {
      this.end = Math.min(this.buf.length, this.limit);
      return;
    }
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    if (size > this.limit) size = Math.max(need, this.limit);
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.end = Math.min(size, this.limit);
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  /** Appends `bytes` (one memcpy). */
  bytes(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /**
   * A PLAIN BYTE_ARRAY value: the length of `src[start, end)` as 4 bytes, then those bytes (a
   * byte loop: for the short values of a column it beats a subarray + set per value).
   */
  lengthPrefixed(src: Uint8Array, start: number, end: number): void {
    const len = end - start;
    this.ensure(4 + len);
    this.u32(len);
    const buf = this.buf;
    let w = this.pos;
    for (let i = start; i < end; i++) buf[w++] = src[i];
    this.pos = w;
  }

  /** A 32-bit little-endian integer (signed or unsigned). */
  u32(v: number): void {
    this.ensure(4);
    const b = this.buf;
    const p = this.pos;
    b[p] = v & 0xff;
    b[p + 1] = (v >>> 8) & 0xff;
    b[p + 2] = (v >>> 16) & 0xff;
    b[p + 3] = (v >>> 24) & 0xff;
    this.pos = p + 4;
  }

  /** Writes a 32-bit little-endian integer at an earlier position (a length known only afterwards). */
  u32At(at: number, v: number): void {
    const b = this.buf;
    b[at] = v & 0xff;
    b[at + 1] = (v >>> 8) & 0xff;
    b[at + 2] = (v >>> 16) & 0xff;
    b[at + 3] = (v >>> 24) & 0xff;
  }

  /** An unsigned LEB128 varint of a non-negative integer up to 2^53 (plain arithmetic, no BigInt). */
  varint(v: number): void {
    this.ensure(8);
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.pos++] = v;
  }

  /** A copy of the bytes written (the caller owns it; the sink's spare capacity is not kept). */
  result(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}
