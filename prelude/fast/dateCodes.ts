/**
 * A host date column as codes of its distinct times, built once per column and kept for the
 * session (the column's arrays never change): `codes[row]` indexes `times`, -1 is a null row. A
 * function of the date (`op.year`, `op.month`, ...) then runs once per distinct time and is looked
 * up by code, as a dictionary column's functions are (fast/deriveEval.ts `perDate`): the SBIR
 * file's 219,590 award dates hold about 16,000 distinct days.
 */
import { NativeWeakMap } from '../intrinsics.js';

/** The distinct times of a date column and each row's code (-1: null). */
export interface DateCodes {
  codes: Int32Array;
  times: Float64Array;
}

const built = new NativeWeakMap<Float64Array, DateCodes>();

/** The codes of the date column with times `values` and validity `valid` (cached per column). */
export function dateCodes(values: Float64Array, valid: Uint8Array): DateCodes {
  let c = built.get(values);
  if (c === undefined) built.set(values, (c = encode(values, valid)));
  return c;
}

/**
 * One pass with an open-addressing table keyed by each time's bits (so NaN, -0 and 0 are keys like
 * any other: a NaN time gives an Invalid Date, -0 and 0 the same Date, whichever code each has).
 */
function encode(values: Float64Array, valid: Uint8Array): DateCodes {
  const n = values.length;
  const bits = new Uint32Array(values.buffer, values.byteOffset, n * 2);
  const codes = new Int32Array(n);
  let cap = 1024;
  let table = new Int32Array(cap).fill(-1); // slot -> code
  let lo = new Uint32Array(64); // code -> low word, high word, row of first use
  let hi = new Uint32Array(64);
  let first = new Uint32Array(64);
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (!valid[i]) {
      codes[i] = -1;
      continue;
    }
    const a = bits[2 * i]!;
    const b = bits[2 * i + 1]!;
    let slot = mix(a, b) & (cap - 1);
    for (;;) {
      const k = table[slot]!;
      if (k < 0) {
        if (count === lo.length) {
          lo = grow(lo);
          hi = grow(hi);
          first = grow(first);
        }
        lo[count] = a;
        hi[count] = b;
        first[count] = i;
        table[slot] = count;
        codes[i] = count++;
        if (count * 2 > cap) {
          cap *= 2;
          table = rehash(lo, hi, count, cap);
        }
        break;
      }
      if (lo[k] === a && hi[k] === b) {
        codes[i] = k;
        break;
      }
      slot = (slot + 1) & (cap - 1);
    }
  }
  const times = new Float64Array(count);
  for (let k = 0; k < count; k++) times[k] = values[first[k]!]!;
  return { codes, times };
}

/** A 32-bit hash of a time's two words (MurmurHash3's finalizer: every input bit reaches the low bits). */
function mix(a: number, b: number): number {
  let h = a ^ Math.imul(b, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function grow(a: Uint32Array): Uint32Array {
  const b = new Uint32Array(a.length * 2);
  b.set(a);
  return b;
}

function rehash(lo: Uint32Array, hi: Uint32Array, count: number, cap: number): Int32Array {
  const table = new Int32Array(cap).fill(-1);
  for (let k = 0; k < count; k++) {
    let slot = mix(lo[k]!, hi[k]!) & (cap - 1);
    while (table[slot]! >= 0) slot = (slot + 1) & (cap - 1);
    table[slot] = k;
  }
  return table;
}
