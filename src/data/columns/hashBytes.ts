/**
 * MurmurHash3 (32-bit) of `buf[s, e)`, four bytes at a time through `view` (a DataView of the
 * same bytes): the hash TextDictionary looks values up by. Computed once per value by the caller
 * (the Parquet text builder shares it between its distinct-count proof and the interning).
 * @example const h = hashBytes(new DataView(b.buffer, b.byteOffset, b.byteLength), b, 0, b.length);
 */
export function hashBytes(view: DataView, buf: Uint8Array, s: number, e: number): number {
  let h = (e - s) | 0;
  let k = s;
  for (; k + 4 <= e; k += 4) {
    let w = Math.imul(view.getInt32(k, true), 0xcc9e2d51);
    w = Math.imul((w << 15) | (w >>> 17), 0x1b873593);
    h ^= w;
    h = (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0;
  }
  if (k < e) {
    let w = 0;
    for (let j = 0; k < e; k++, j += 8) w |= buf[k] << j;
    w = Math.imul(w, 0xcc9e2d51);
    h ^= Math.imul((w << 15) | (w >>> 17), 0x1b873593);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** A DataView of exactly the bytes of `buf`. */
export function viewOf(buf: Uint8Array): DataView {
  return new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
}
