import { PageCorrupt } from './pageErrors.js';

/** Where each of a page's byte-array values lies in the page buffer: `buf[begin[i], end[i])`. */
export interface ByteRanges {
  buf: Uint8Array;
  begin: Int32Array;
  end: Int32Array;
}

/**
 * `n` PLAIN BYTE_ARRAY values (a 4-byte little-endian length, then the bytes) from `buf[pos, stop)`,
 * as ranges into `buf` (no copy). Each length is read unsigned and checked against what is left of
 * the page before it is used, so a negative or huge length is PageCorrupt, never a read past it.
 * @throws {PageCorrupt} a length past the page, or fewer than `n` values.
 * @example const { ranges } = plainBytes(page, 0, page.length, 10);
 */
export function plainBytes(buf: Uint8Array, pos: number, stop: number, n: number): { ranges: ByteRanges; pos: number } {
  if (stop > buf.length || n < 0 || n * 4 > stop - pos)
    throw new PageCorrupt(`${n} text values do not fit in the ${stop - pos} bytes left in the page`);
  const begin = new Int32Array(n);
  const end = new Int32Array(n);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  for (let i = 0; i < n; i++) {
    if (pos + 4 > stop) throw new PageCorrupt(`the page ends after ${i} of ${n} text values`);
    const len = view.getUint32(pos, true);
    pos += 4;
    if (len > stop - pos)
      throw new PageCorrupt(`a text value of ${len} bytes, with ${stop - pos} bytes left in the page`);
    begin[i] = pos;
    pos += len;
    end[i] = pos;
  }
  return { ranges: { buf, begin, end }, pos };
}
