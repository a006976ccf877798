/**
 * DOUBLE, INT64 and TIMESTAMP (ms) chunks from a Float64Array: the visible values are gathered
 * into a scratch Float64Array (DOUBLE) or its 32-bit halves (INT64: lo, hi of a whole number,
 * exact below 2^53, no BigInt), then copied to the page in one memcpy. Little-endian, like every
 * platform V8 runs on. min/max statistics are taken on the way (none for DOUBLE with a NaN).
 */
import type { BigPlan, NumPlan } from './plan.js';
import type { Encoded, Scratch } from './scratch.js';
import { GuestError } from '../../errors/guestError.js';

const TWO32 = 4294967296;
/** Date's range (TimeClip): beyond it there is no instant. */
const MAX_MS = 8.64e15;

/** Encodes rows [a, b) of a number plan into `s` (levels, values). */
export function encodeNumbers(p: NumPlan, a: number, b: number, s: Scratch): Encoded {
  const { values, valid, rows, kind } = p;
  const f64 = s.f64;
  const flags = s.valid;
  const time = kind === 'timestamp';
  let j = 0;
  let min = Infinity;
  let max = -Infinity;
  let nan = false;
  if (time) {
    for (let k = a; k < b; k++) {
      const r = rows ? rows[k] : k;
      const raw = values[r];
      // valid and within Date's range (NaN fails both comparisons)
      if ((valid && valid[r] !== 1) || !(raw >= -MAX_MS && raw <= MAX_MS)) {
        flags[k - a] = 0;
        continue;
      }
      flags[k - a] = 1;
      const v = Math.trunc(raw) + 0; // a Date's own truncation; +0 turns -0 into 0
      f64[j++] = v;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  } else {
    for (let k = a; k < b; k++) {
      const r = rows ? rows[k] : k;
      if (valid && valid[r] !== 1) {
        flags[k - a] = 0;
        continue;
      }
      flags[k - a] = 1;
      const v = values[r];
      f64[j++] = v;
      if (v < min) min = v;
      if (v > max) max = v;
      if (v !== v) nan = true;
    }
  }
  const out = s.values;
  if (kind === 'double') {
    out.bytes(new Uint8Array(f64.buffer, 0, j * 8));
    const stats = j > 0 && !nan ? { min: double(min === 0 ? -0 : min), max: double(max === 0 ? 0 : max) } : {};
    return { nulls: b - a - j, encoding: 0, ...stats };
  }
  // INT64: in place, value q's 8 bytes become its lo and hi 32-bit halves
  const i32 = s.i32;
  for (let q = 0; q < j; q++) {
    const v = f64[q];
    const hi = Math.floor(v / TWO32);
    i32[2 * q] = (v - hi * TWO32) | 0;
    i32[2 * q + 1] = hi;
  }
  out.bytes(new Uint8Array(f64.buffer, 0, j * 8));
  const stats = j > 0 ? { min: int64(min), max: int64(max) } : {};
  return { nulls: b - a - j, encoding: 0, ...stats };
}

/** INT64 chunks of integers some of which are BigInts (each range-checked; no statistics). */
export function encodeBigInts(p: BigPlan, a: number, b: number, s: Scratch): Encoded {
  const { values, rows } = p;
  const big = s.big;
  const flags = s.valid;
  let j = 0;
  for (let k = a; k < b; k++) {
    const x = values[rows ? rows[k] : k];
    if (x === null || x === undefined) {
      flags[k - a] = 0;
      continue;
    }
    flags[k - a] = 1;
    const v = typeof x === 'bigint' ? x : BigInt(x as number);
    if (v > 9223372036854775807n || v < -9223372036854775808n) {
      throw new GuestError(
        'RangeError',
        `to_parquet: column ${JSON.stringify(p.name)} holds ${v}, beyond a 64-bit integer (Parquet INT64)`,
        `Convert that column to text first, e.g. derive({ ${JSON.stringify(p.name)}: d => d[${JSON.stringify(p.name)}] + '' }), or to a number (inexact beyond 2^53).`,
      );
    }
    big[j++] = v;
  }
  s.values.bytes(new Uint8Array(big.buffer, 0, j * 8));
  return { nulls: b - a - j, encoding: 0 };
}

function double(v: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, v, true);
  return b;
}

function int64(v: number): Uint8Array {
  const b = new Uint8Array(8);
  const dv = new DataView(b.buffer);
  const hi = Math.floor(v / TWO32);
  dv.setUint32(0, v - hi * TWO32, true);
  dv.setInt32(4, hi, true);
  return b;
}
