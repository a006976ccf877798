/**
 * MurmurHash3 (32-bit) of `buf[s, e)`, four bytes at a time through `view` (a DataView of the
 * same bytes): the hash StringBuilder interns with. Computed once per value: the distinct-count
 * proof and the interning share it.
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

/**
 * A lower bound on how many distinct values a column has: values are hashed into a bitmap of
 * about 32 bits per value that would still fit a dictionary, and the bits set are counted. Equal
 * values set the same bit, so the count never exceeds the true number of distinct values, and
 * once it passes `limit` the column is proven to have more than `limit` distinct values, with
 * no hash table and no byte comparison. (A column it cannot prove may still have more: the
 * caller then interns as usual, and finds out exactly.)
 * @example const f = new DistinctFloor(65_535); f.add(h); if (f.above) ...;
 */
export class DistinctFloor {
  private readonly bits: Int32Array;
  private readonly shift: number;
  private count = 0;

  constructor(private readonly limit: number) {
    let log = 10;
    while (log < 24 && 2 ** log < limit * 32) log++;
    this.bits = new Int32Array(2 ** (log - 5));
    this.shift = 32 - log;
  }

  /** Counts one value by its hash (hashBytes). */
  add(h: number): void {
    const b = h >>> this.shift;
    const word = b >>> 5;
    const bit = 1 << (b & 31);
    const w = this.bits[word];
    if ((w & bit) === 0) {
      this.bits[word] = w | bit;
      this.count++;
    }
  }

  /** True once more than `limit` distinct values are proven. */
  get above(): boolean {
    return this.count > this.limit;
  }
}
