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

  /** Distinct values proven so far (never more than there are). */
  get counted(): number {
    return this.count;
  }

  /** True once more than `limit` distinct values are proven. */
  get above(): boolean {
    return this.count > this.limit;
  }
}
