import type { ArrowBatch } from './arrowBatch.js';

/**
 * Writes 1 (a value) or 0 (null) for each row of a checked batch (checkBatches.ts) into
 * `valid` from index `at`, and returns how many rows hold a value. The bitmap counts only when
 * the batch declares nulls, as in flechette's own reads (`Batch.at`), so both paths agree.
 * @example const values = validBytes(batch, valid, at);
 */
export function validBytes(batch: ArrowBatch, valid: Uint8Array, at: number): number {
  const n = batch.length;
  if (!batch.nullCount) {
    valid.fill(1, at, at + n);
    return n;
  }
  const bits = batch.validity!;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const v = (bits[i >> 3] >> (i & 7)) & 1;
    valid[at + i] = v;
    count += v;
  }
  return count;
}
