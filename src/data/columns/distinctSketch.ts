import type { Utf8Column } from '../../../schema/columnar.js';

/** Bytes read at each end and the middle of a value: its bit depends on its length and these bytes only. */
const END_BYTES = 8;
/** Values read between checks of how much a column repeats (then given up: its sketch could not settle it). */
const FIRST_BLOCK = 8192;

/**
 * A bitmap with one bit set per distinct value of a text column (a bit from the value's length and
 * {@link END_BYTES} bytes at its start, middle and end), or null when its first {@link FIRST_BLOCK} values repeat a lot, or
 * any later block ends with fewer bits set than half the values read (no use to {@link distinctAtLeast});
 * it stops as soon as more than `bound` bits are set. Equal values set the same
 * bit, so the bits set, in one part or OR-ed over all the parts of a column, never exceed the
 * column's distinct values: a certain lower bound that reads at most 24 bytes of each value.
 * `bound` is the most distinct values that matter (a dictionary's limit): the map has 4x that many
 * bits, so an all-distinct column sets most of its values' bits.
 * @example distinctSketch(text, nonNull, 65_535)
 */
export function distinctSketch(col: Utf8Column, nonNull: number, bound: number): Uint32Array | null {
  let bits = 64;
  while (bits < 4 * Math.min(bound, nonNull)) bits *= 2;
  const map = new Uint32Array(bits / 32);
  const mask = bits - 1;
  const { bytes, offsets, valid } = col;
  let seen = 0;
  let set = 0;
  for (let r = 0; r < valid.length; r++) {
    if (valid[r] === 0) continue;
    const s = offsets[r];
    const e = offsets[r + 1];
    let h = Math.imul(0x811c9dc5 ^ (e - s), 16777619);
    if (e - s <= 3 * END_BYTES) for (let k = s; k < e; k++) h = Math.imul(h ^ bytes[k], 16777619);
    else {
      const mid = (s + e - END_BYTES) >> 1;
      for (let k = s; k < s + END_BYTES; k++) h = Math.imul(h ^ bytes[k], 16777619);
      for (let k = mid; k < mid + END_BYTES; k++) h = Math.imul(h ^ bytes[k], 16777619);
      for (let k = e - END_BYTES; k < e; k++) h = Math.imul(h ^ bytes[k], 16777619);
    }
    // murmur3's finalizer: FNV's low bits alone spread poorly over a power-of-two map
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
    const bit = h & mask;
    const word = bit >>> 5;
    const m = 1 << (bit & 31);
    if ((map[word] & m) === 0) {
      map[word] |= m;
      // past `bound` the column is settled: the rest of its values cannot lower the count
      if (++set > bound) return map;
    }
    // a column that repeats this much cannot be shown past half its values (a dictionary's usual limit)
    if (++seen % FIRST_BLOCK === 0 && set * (seen === FIRST_BLOCK ? 4 : 2) < seen) return null;
  }
  return map;
}

/**
 * A certain lower bound of the distinct values of a column whose parts gave these sketches (each
 * from {@link distinctSketch}; a part without one adds nothing). Maps of different sizes are folded
 * onto the smallest (bit i of 2^k bits is bit i mod 2^j of 2^j), which keeps one bit per value.
 * @example distinctAtLeast([a, b]) > limit // no dictionary, whatever the parts' values share
 */
export function distinctAtLeast(sketches: readonly (Uint32Array | undefined | null)[]): number {
  const maps = sketches.filter((s): s is Uint32Array => s != null);
  if (maps.length === 0) return 0;
  let best = Math.max(...maps.map((m) => ones(m)));
  if (maps.length > 1) {
    const words = Math.min(...maps.map((m) => m.length));
    const union = new Uint32Array(words);
    for (const m of maps) for (let i = 0; i < m.length; i++) union[i & (words - 1)] |= m[i];
    best = Math.max(best, ones(union));
  }
  return best;
}

function ones(map: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < map.length; i++) {
    let v = map[i];
    v -= (v >>> 1) & 0x55555555;
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    n += (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) | 0;
  }
  return n;
}
