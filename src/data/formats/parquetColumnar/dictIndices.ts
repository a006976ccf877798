import { readHybrid } from './hybrid.js';
import { PageCorrupt } from './pageErrors.js';

/**
 * The `n` dictionary indices of a PLAIN_DICTIONARY / RLE_DICTIONARY data page (a bit-width byte,
 * then the RLE / bit-packed hybrid), each checked to point inside a dictionary of `size` entries.
 * Written into `into` when given (its first `n` entries; the returned array is a view of them),
 * else into a new array.
 * @throws {PageCorrupt} no dictionary page before the data, a bit width over 32, an index past the dictionary.
 * @example const idx = dictIndices(page, pos, page.length, 100, dict.length);
 */
export function dictIndices(
  buf: Uint8Array,
  pos: number,
  end: number,
  n: number,
  size: number | undefined,
  into?: Int32Array,
): Int32Array {
  if (size === undefined) throw new PageCorrupt('a dictionary-coded page without a dictionary page before it');
  const out = into === undefined ? new Int32Array(n) : into.subarray(0, n);
  if (n === 0) return out;
  if (pos >= end) throw new PageCorrupt('a dictionary-coded page without its bit width');
  // width 0: every index is 0 and no runs need follow (hyparquet reads none either)
  if (buf[pos] !== 0) readHybrid(buf, pos + 1, end, buf[pos], out, n);
  else if (into !== undefined) out.fill(0); // a reused array holds the last page's indices
  for (let i = 0; i < n; i++) {
    const k = out[i];
    if (k < 0 || k >= size) throw new PageCorrupt(`dictionary index ${k} of a dictionary with ${size} entries`);
  }
  return out;
}
