import type { ArrowBatch } from './arrowBatch.js';
import { corrupt } from './corrupt.js';

/**
 * Checks what every batch of a column declares before any of its buffers is read: a row count
 * that is a whole number, the same as the first column's batch of the same record batch (so rows
 * line up across columns), a null count within it, and a validity bitmap with a bit for every row
 * when there are nulls. `rows` are the first column's batch lengths (itself for the first column).
 * @throws {DataError} DATA_CORRUPT naming the column and the record batch.
 * @example checkBatches(batches, firstColumnLengths, 't.arrow', 'amount');
 */
export function checkBatches(
  batches: readonly ArrowBatch[],
  rows: readonly number[],
  file: string,
  column: string,
): void {
  if (batches.length !== rows.length)
    throw corrupt(file, column, `${batches.length} record batches where the first column has ${rows.length}`);
  for (let b = 0; b < batches.length; b++) {
    const { length, nullCount, validity } = batches[b];
    const where = `record batch ${b + 1}`;
    if (!Number.isSafeInteger(length) || length < 0) throw corrupt(file, column, `${where} declares ${length} rows`);
    if (length !== rows[b])
      throw corrupt(file, column, `${where} has ${length} rows where the first column has ${rows[b]}`);
    if (!Number.isSafeInteger(nullCount) || nullCount < 0 || nullCount > length)
      throw corrupt(file, column, `${where} declares ${nullCount} nulls in ${length} rows`);
    if (nullCount > 0 && (!validity || validity.length < Math.ceil(length / 8))) {
      throw corrupt(
        file,
        column,
        `${where} declares ${nullCount} nulls but its validity bitmap has ${validity?.length ?? 0} bytes for ${length} rows`,
      );
    }
  }
}
