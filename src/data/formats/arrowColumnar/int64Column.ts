import type { Float64Column } from '../../../../schema/columnar.js';
import type { ArrowBatch } from './arrowBatch.js';
import { validBytes } from './validBytes.js';
import { words64 } from './words64.js';

/** 2^32: a high word's weight. */
const HIGH = 4294967296;
/** The high word of 2^53 - 1, the largest integer a float64 holds exactly. */
const SAFE_HIGH = 0x1fffff;

/**
 * An 'integer' float64 column from checked batches of Int64 (`signed`) or Uint64 values, or null
 * when a value lies beyond +-(2^53 - 1): such a column becomes exact decimal text, which the
 * per-value path (typedColumn.ts, `large`) builds. Values are read as two 32-bit words each.
 * @throws {DataError} DATA_CORRUPT when a batch has fewer values than rows.
 * @example int64Column(batches, true, 't.arrow', 'id') ?? slowColumn()
 */
export function int64Column(batches: readonly ArrowBatch[], signed: boolean, file: string, column: string): Float64Column | null {
  let total = 0;
  for (const b of batches) total += b.length;
  const values = new Float64Array(total);
  const valid = new Uint8Array(total);
  let at = 0;
  for (let k = 0; k < batches.length; k++) {
    const b = batches[k];
    const n = b.length;
    const w = words64(b, k, file, column);
    validBytes(b, valid, at);
    for (let i = 0; i < n; i++) {
      if (!valid[at + i]) continue;
      const lo = w[2 * i] >>> 0;
      const hi = signed ? w[2 * i + 1] : w[2 * i + 1] >>> 0;
      // exact iff -(2^53 - 1) <= hi * 2^32 + lo <= 2^53 - 1
      if (hi > SAFE_HIGH || hi < -SAFE_HIGH - 1 || (hi === -SAFE_HIGH - 1 && lo === 0)) return null;
      values[at + i] = hi * HIGH + lo;
    }
    at += n;
  }
  return { kind: 'float64', type: 'integer', values, valid };
}
