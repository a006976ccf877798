/**
 * The distinct numbers of a column, in order of first appearance, with a count of each: an
 * open-addressing hash over the float64 bits (no boxed numbers, no Map). Keys compare as a Map
 * compares them: 0 and -0 are one key (the first occurrence is kept as its value), NaN is one key.
 * Used by value_counts, nunique and unique of numbers (series/fastReduce.ts) and by number key codes
 * (keyCodes.ts).
 */

import { MathMax, MathMin } from '../intrinsics.js';

const word = new Float64Array(1);
const half = new Int32Array(word.buffer);

/** The slot of `x`'s bits (-0 hashed as 0) in a table of `mask + 1` slots. */
function slotOf(x: number, mask: number): number {
  word[0] = x + 0;
  const h = Math.imul(half[0]! ^ Math.imul(half[1]!, 0x9e3779b1), 0x85ebca6b);
  return (h ^ (h >>> 15)) & mask;
}

/** Distinct numbers and their counts; `firsts[k]` / `counts[k]` for key k < size, keys numbered from 0 as they first appear. */
export class NumberKeys {
  size = 0;
  firsts = new Float64Array(0);
  counts = new Int32Array(0);
  /** The key of NaN, -1 until one is added. */
  nan = -1;
  private slots = new Int32Array(0); // key + 1; 0 is empty
  private mask = 0;
  private readonly most: number;

  /** `most`: the most keys expected (the number of values to add); the table starts small and grows towards it. */
  constructor(most: number) {
    this.most = MathMax(most, 1);
    this.grow(MathMin(this.most, 4096));
  }

  /** Adds one occurrence of `x`; its key. */
  add(x: number): number {
    if (x !== x) {
      if (this.nan < 0) this.nan = this.newKey(x);
      this.counts[this.nan]!++;
      return this.nan;
    }
    const { slots, firsts, mask } = this;
    let h = slotOf(x, mask);
    let at = slots[h]!;
    while (at !== 0 && firsts[at - 1] !== x) {
      h = (h + 1) & mask;
      at = slots[h]!;
    }
    if (at === 0) {
      if (this.size === firsts.length) {
        this.grow(MathMax(this.size * 2, MathMin(this.most, this.size * 8)));
        return this.add(x);
      }
      at = this.newKey(x) + 1;
      slots[h] = at;
    }
    this.counts[at - 1]!++;
    return at - 1;
  }

  /** The key of `x` (as add would find it), or -1 when it was never added; counts nothing. */
  keyOf(x: number): number {
    if (x !== x) return this.nan;
    const { slots, firsts, mask } = this;
    let h = slotOf(x, mask);
    let at = slots[h]!;
    while (at !== 0 && firsts[at - 1] !== x) {
      h = (h + 1) & mask;
      at = slots[h]!;
    }
    return at - 1;
  }

  /** Adds the first `len` numbers of `xs`. */
  addAll(xs: Float64Array, len: number): void {
    for (let i = 0; i < len; i++) this.add(xs[i]!);
  }

  private newKey(x: number): number {
    if (this.size === this.firsts.length) this.grow(MathMax(this.size * 2, MathMin(this.most, this.size * 8)));
    this.firsts[this.size] = x;
    return this.size++;
  }

  /** Room for `keys` keys, in a table at most half full. */
  private grow(keys: number): void {
    const firsts = new Float64Array(keys);
    firsts.set(this.firsts.subarray(0, this.size));
    const counts = new Int32Array(keys);
    counts.set(this.counts.subarray(0, this.size));
    let cap = 16;
    while (cap < keys * 2) cap *= 2;
    const mask = cap - 1;
    const slots = new Int32Array(cap);
    for (let k = 0; k < this.size; k++) {
      if (k === this.nan) continue;
      let h = slotOf(firsts[k]!, mask);
      while (slots[h] !== 0) h = (h + 1) & mask;
      slots[h] = k + 1;
    }
    this.firsts = firsts;
    this.counts = counts;
    this.slots = slots;
    this.mask = mask;
  }
}
