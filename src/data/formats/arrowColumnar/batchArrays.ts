import type { ArrowBatch } from './arrowBatch.js';

/**
 * A transfer column's values and validity over all of a column's batches, filled batch by batch:
 * `fill(batch, k, values, valid, at)` writes batch k's rows from row `at` on; it returns false to
 * give the column up (the caller then reads it another way), and null is returned. `beat` is
 * called after each batch (a column worker's heartbeat: lazyParquet/columnWorker.ts).
 * @example batchArrays(batches, (n) => new Float64Array(n), (b, k, values, valid, at) => { ... })
 */
export function batchArrays<T extends Float64Array | Uint8Array>(
  batches: readonly ArrowBatch[],
  make: (rows: number) => T,
  fill: (batch: ArrowBatch, k: number, values: T, valid: Uint8Array, at: number) => boolean | void,
  beat?: () => void,
): { values: T; valid: Uint8Array } | null {
  let total = 0;
  for (const b of batches) total += b.length;
  const values = make(total);
  const valid = new Uint8Array(total);
  let at = 0;
  for (let k = 0; k < batches.length; k++) {
    if (fill(batches[k], k, values, valid, at) === false) return null;
    at += batches[k].length;
    beat?.();
  }
  return { values, valid };
}
