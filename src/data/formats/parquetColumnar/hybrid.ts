import { PageCorrupt } from './pageErrors.js';

/**
 * Decode `count` values of Parquet's RLE / bit-packed hybrid encoding from `buf[pos, end)` into
 * `out[0, count)` (definition levels, dictionary indices, RLE booleans). Every read is checked
 * against `end`: a run that needs bytes the page does not have is PageCorrupt, never a read past
 * it. A run longer than the values still wanted is cut (writers pad the last bit-packed group).
 * Returns the position after the last run read.
 * @throws {PageCorrupt} a bit width over 32, a truncated run, or fewer values than `count`.
 * @example const defs = new Int32Array(n); readHybrid(page, 4, 4 + len, 1, defs, n);
 */
export function readHybrid(
  buf: Uint8Array,
  pos: number,
  end: number,
  width: number,
  out: Int32Array,
  count: number,
): number {
  if (!(width >= 0 && width <= 32)) throw new PageCorrupt(`a bit width of ${width} (at most 32)`);
  if (end > buf.length) throw new PageCorrupt('a run of levels or indices past the end of its page');
  const valueBytes = (width + 7) >>> 3;
  let seen = 0;
  while (seen < count) {
    // the run header: an unsigned varint of at most 5 bytes
    let header = 0;
    let shift = 0;
    for (;;) {
      if (pos >= end) throw new PageCorrupt(`the encoded values stop after ${seen} of ${count}`);
      const b = buf[pos++];
      header += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) break;
      shift += 7;
      if (shift > 28) throw new PageCorrupt('a run header longer than 5 bytes');
    }
    if (header % 2 === 1) {
      const groups = Math.floor(header / 2);
      const take = Math.min(groups * 8, count - seen);
      if (take === 0) throw new PageCorrupt('an empty bit-packed run');
      const need = Math.ceil((take * width) / 8);
      if (pos + need > end)
        throw new PageCorrupt(`a bit-packed run of ${take} values needs ${need} bytes, the page has ${end - pos}`);
      unpack(buf, pos, end, width, out, seen, take);
      seen += take;
      pos = Math.min(end, pos + groups * width);
    } else {
      const runLength = header / 2;
      if (runLength === 0) throw new PageCorrupt('an empty run');
      if (pos + valueBytes > end) throw new PageCorrupt('a run value past the end of its page');
      let v = 0;
      for (let i = 0; i < valueBytes; i++) v += buf[pos + i] * 2 ** (8 * i);
      pos += valueBytes;
      // an index >= 2^31 can only be corrupt: the caller's range check then refuses it
      const value = v > 0x7fffffff ? -1 : v;
      const stop = Math.min(count, seen + runLength);
      out.fill(value, seen, stop);
      seen = stop;
    }
  }
  return pos;
}

function unpack(
  buf: Uint8Array,
  pos: number,
  end: number,
  width: number,
  out: Int32Array,
  at: number,
  n: number,
): void {
  if (width === 0) {
    out.fill(0, at, at + n);
    return;
  }
  if (width === 1) {
    // definition levels and booleans: 8 values per byte (the caller checked ceil(n / 8) bytes)
    for (let i = 0; i < n; i++) out[at + i] = (buf[pos + (i >>> 3)] >>> (i & 7)) & 1;
    return;
  }
  if (width <= 8) {
    // dictionary indices of a small dictionary: a value lies within a 2-byte window (bits up to
    // 7 + 8); windows that reach past `end` read padding as 0
    const mask = (1 << width) - 1;
    const fast = end - 2;
    for (let i = 0, bit = 0; i < n; i++, bit += width) {
      const k = pos + (bit >>> 3);
      const word = k <= fast ? buf[k] | (buf[k + 1] << 8) : tail(buf, k, end);
      out[at + i] = (word >>> (bit & 7)) & mask;
    }
    return;
  }
  if (width <= 24) {
    const mask = (1 << width) - 1;
    // a 4-byte window per value; windows that reach past `end` read padding as 0
    const fast = end - 4;
    for (let i = 0, bit = 0; i < n; i++, bit += width) {
      const k = pos + (bit >>> 3);
      const word = k <= fast ? buf[k] | (buf[k + 1] << 8) | (buf[k + 2] << 16) | (buf[k + 3] << 24) : tail(buf, k, end);
      out[at + i] = (word >>> (bit & 7)) & mask;
    }
    return;
  }
  const span = 2 ** width;
  for (let i = 0, bit = 0; i < n; i++, bit += width) {
    const k = pos + Math.floor(bit / 8);
    const word = tail(buf, k, end) >>> 0;
    const v = Math.floor((word + (k + 4 < end ? buf[k + 4] : 0) * 2 ** 32) / 2 ** (bit % 8)) % span;
    out[at + i] = v > 0x7fffffff ? -1 : v;
  }
}

/** The little-endian 4-byte window at `k`, bytes at or past `end` read as 0 (padding, never needed). */
function tail(buf: Uint8Array, k: number, end: number): number {
  let w = 0;
  for (let j = 0; j < 4 && k + j < end; j++) w |= buf[k + j] << (8 * j);
  return w;
}
