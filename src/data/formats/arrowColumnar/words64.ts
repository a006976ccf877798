import type { ArrowBatch } from './arrowBatch.js';
import { corrupt } from './corrupt.js';

/**
 * The 64-bit values of a checked batch as 32-bit words (little-endian: low word at 2i, high word
 * at 2i + 1), a view of the same bytes: 64-bit integers are read without a BigInt per value.
 * @throws {DataError} DATA_CORRUPT when the batch has fewer values than rows.
 * @example const w = words64(batch, k, 't.arrow', 'id'); const x = w[2 * i + 1] * 4294967296 + (w[2 * i] >>> 0);
 */
export function words64(batch: ArrowBatch, k: number, file: string, column: string): Int32Array {
  const v = batch.values;
  if (!(v instanceof BigInt64Array || v instanceof BigUint64Array) || v.length < batch.length) {
    throw corrupt(file, column, `record batch ${k + 1} has ${v?.length ?? 0} 64-bit values for ${batch.length} rows`);
  }
  return new Int32Array(v.buffer, v.byteOffset, batch.length * 2);
}

/** 2^32: a high word's weight. */
export const HIGH = 4294967296;
/** The high word of 2^53 - 1, the largest integer a float64 holds exactly. */
const SAFE_HIGH = 0x1fffff;

/** True when hi * 2^32 + lo (lo read unsigned) lies within +-(2^53 - 1), so a float64 holds it exactly. */
export function exactInt(hi: number, lo: number): boolean {
  return !(hi > SAFE_HIGH || hi < -SAFE_HIGH - 1 || (hi === -SAFE_HIGH - 1 && lo === 0));
}
