import type { BoolColumn } from '../../../../schema/columnar.js';
import type { ArrowBatch } from './arrowBatch.js';
import { batchArrays } from './batchArrays.js';
import { corrupt } from './corrupt.js';
import { validBytes } from './validBytes.js';

/**
 * A boolean transfer column from checked batches of bit-packed Arrow booleans (bit i of byte
 * i >> 3, least significant bit first); a null row is 0 with valid 0.
 * @throws {DataError} DATA_CORRUPT when a batch has fewer bits than rows.
 * @example bitColumn(batches, 't.arrow', 'active')
 */
export function bitColumn(batches: readonly ArrowBatch[], file: string, column: string, beat?: () => void): BoolColumn {
  const out = batchArrays(
    batches,
    (n) => new Uint8Array(n),
    (b, k, values, valid, at) => {
      const n = b.length;
      const bits = b.values;
      if (!(bits instanceof Uint8Array) || bits.length < Math.ceil(n / 8))
        throw corrupt(
          file,
          column,
          `record batch ${k + 1} has ${bits?.byteLength ?? 0} bytes of booleans for ${n} rows`,
        );
      validBytes(b, valid, at);
      for (let i = 0; i < n; i++) if (valid[at + i]) values[at + i] = (bits[i >> 3] >> (i & 7)) & 1;
    },
    beat,
  )!;
  return { kind: 'bool', type: 'boolean', ...out };
}
