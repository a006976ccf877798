import { readHybrid } from './hybrid.js';
import { PageCorrupt } from './pageErrors.js';

/**
 * `n` BOOLEAN values as 0/1 bytes: PLAIN (bit-packed, least significant bit first) or RLE (a
 * 4-byte length, then the RLE / bit-packed hybrid at width 1). Reads stay inside `buf[pos, stop)`.
 * @throws {PageCorrupt} when the page holds fewer than `n` values.
 * @example booleans(page, 0, page.length, 8, 'PLAIN')
 */
export function booleans(buf: Uint8Array, pos: number, stop: number, n: number, encoding: 'PLAIN' | 'RLE'): Uint8Array {
  const out = new Uint8Array(n);
  if (encoding === 'PLAIN') {
    if (pos + Math.ceil(n / 8) > stop || stop > buf.length)
      throw new PageCorrupt(`${n} booleans do not fit in the ${stop - pos} bytes left in the page`);
    for (let i = 0; i < n; i++) out[i] = (buf[pos + (i >>> 3)] >>> (i & 7)) & 1;
    return out;
  }
  if (pos + 4 > stop) throw new PageCorrupt('an RLE boolean run without its length');
  const len = (buf[pos] | (buf[pos + 1] << 8) | (buf[pos + 2] << 16) | (buf[pos + 3] << 24)) >>> 0;
  if (len > stop - pos - 4)
    throw new PageCorrupt(`RLE booleans of ${len} bytes, with ${stop - pos - 4} left in the page`);
  const bits = new Int32Array(n);
  readHybrid(buf, pos + 4, pos + 4 + len, 1, bits, n);
  for (let i = 0; i < n; i++) out[i] = bits[i] === 0 ? 0 : 1;
  return out;
}
