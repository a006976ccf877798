import type { Float64Column } from '../../../../schema/columnar.js';
import type { ArrowBatch } from './arrowBatch.js';
import { batchArrays } from './batchArrays.js';
import { validBytes } from './validBytes.js';
import { exactInt, HIGH, words64 } from './words64.js';

/**
 * An 'integer' float64 column from checked batches of Int64 (`signed`) or Uint64 values, or null
 * when a value lies beyond +-(2^53 - 1): such a column becomes exact decimal text, which the
 * per-value path (typedColumn.ts, `large`) builds. Values are read as two 32-bit words each.
 * @throws {DataError} DATA_CORRUPT when a batch has fewer values than rows.
 * @example int64Column(batches, true, 't.arrow', 'id') ?? slowColumn()
 */
export function int64Column(
  batches: readonly ArrowBatch[],
  signed: boolean,
  file: string,
  column: string,
  beat?: () => void,
): Float64Column | null {
  const out = batchArrays(
    batches,
    (n) => new Float64Array(n),
    (b, k, values, valid, at) => {
      const w = words64(b, k, file, column);
      validBytes(b, valid, at);
      for (let i = 0; i < b.length; i++) {
        if (!valid[at + i]) continue;
        const lo = w[2 * i] >>> 0;
        const hi = signed ? w[2 * i + 1] : w[2 * i + 1] >>> 0;
        if (!exactInt(hi, lo)) return false;
        values[at + i] = hi * HIGH + lo;
      }
      return true;
    },
    beat,
  );
  return out && { kind: 'float64', type: 'integer', ...out };
}
