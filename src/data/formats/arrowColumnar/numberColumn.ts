import type { Float64Column } from '../../../../schema/columnar.js';
import type { ArrowBatch } from './arrowBatch.js';
import { batchArrays } from './batchArrays.js';
import { corrupt } from './corrupt.js';
import { validBytes } from './validBytes.js';

/**
 * A float64 transfer column from checked batches (checkBatches.ts) of 8-, 16- or 32-bit
 * integers, float32 or float64 (or day-count dates, `scale` 86,400,000 ms): the typed values
 * are widened in bulk, a null row is 0 with valid 0, as the per-value path writes it.
 * @throws {DataError} DATA_CORRUPT when a batch has fewer values than rows.
 * @example numberColumn(batches, 'integer', 1, 't.arrow', 'employees')
 */
export function numberColumn(
  batches: readonly ArrowBatch[],
  type: Float64Column['type'],
  scale: number,
  file: string,
  column: string,
  beat?: () => void,
): Float64Column {
  const out = batchArrays(
    batches,
    (n) => new Float64Array(n),
    (b, k, values, valid, at) => {
      const n = b.length;
      const src = b.values as unknown as Float64Array; // any non-64-bit-integer typed array: read as numbers
      if (!src || src instanceof BigInt64Array || src instanceof BigUint64Array || src.length < n)
        throw corrupt(file, column, `record batch ${k + 1} has ${src?.length ?? 0} values for ${n} rows`);
      const some = validBytes(b, valid, at);
      if (some === n && scale === 1) values.set(src.subarray(0, n), at);
      else if (some === n) for (let i = 0; i < n; i++) values[at + i] = scale * src[i];
      else for (let i = 0; i < n; i++) if (valid[at + i]) values[at + i] = scale * src[i];
    },
    beat,
  )!;
  return { kind: 'float64', type, ...out };
}
