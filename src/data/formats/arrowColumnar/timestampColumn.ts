import type { Float64Column } from '../../../../schema/columnar.js';
import { DataError } from '../../errors.js';
import type { ArrowBatch } from './arrowBatch.js';
import { ARROW_DAMAGED } from './corrupt.js';
import { batchArrays } from './batchArrays.js';
import { validBytes } from './validBytes.js';
import { exactInt, HIGH, words64 } from './words64.js';

/** The unit of 64-bit time values: seconds, milliseconds (Timestamp and Date), microseconds, nanoseconds. */
export type TimeUnitName = 's' | 'ms' | 'us' | 'ns';

/**
 * A 'date' column (float64 ms since the epoch, UTC) from checked batches of 64-bit Timestamp or
 * Date(ms) values, with exactly the numbers flechette gives per value: s and ms must be exact
 * float64 integers (else the column cannot be decoded, as flechette refuses them), us and ns are
 * divided as BigInts are (truncated quotient + remainder / divisor), done here on 32-bit words.
 * @throws {DataError} DATA_CORRUPT for a short batch or an s / ms value beyond +-(2^53 - 1).
 * @example timestampColumn(batches, 'ns', 't.arrow', 'when')
 */
export function timestampColumn(
  batches: readonly ArrowBatch[],
  unit: TimeUnitName,
  file: string,
  column: string,
  beat?: () => void,
): Float64Column {
  const out = batchArrays(
    batches,
    (n) => new Float64Array(n),
    (b, k, values, valid, at) => {
      const w = words64(b, k, file, column);
      validBytes(b, valid, at);
      for (let i = 0; i < b.length; i++) {
        if (!valid[at + i]) continue;
        const lo = w[2 * i] >>> 0;
        const hi = w[2 * i + 1];
        if (unit === 's' || unit === 'ms') {
          if (!exactInt(hi, lo)) {
            const big = (b.values as BigInt64Array)[i];
            throw new DataError(
              'DATA_CORRUPT',
              `${file}: column '${column}' cannot be decoded (BigInt exceeds integer number representation: ${big})`,
              { hint: ARROW_DAMAGED },
            );
          }
          values[at + i] = unit === 's' ? (hi * HIGH + lo) * 1e3 : hi * HIGH + lo;
        } else if (unit === 'ns') values[at + i] = divide(hi, lo, 1e6);
        else if (hi < 0x40000000 && hi >= -0x40000000) values[at + i] = divide(hi, lo, 1e3);
        else {
          // beyond +-2^62 us the quotient is not an exact float64: BigInt, as flechette does
          const big = (b.values as BigInt64Array)[i];
          values[at + i] = Number(big / 1000n) + Number(big % 1000n) / 1000;
        }
      }
    },
    beat,
  )!;
  return { kind: 'float64', type: 'date', ...out };
}

/**
 * Number(v / d) + Number(v % d) / d for v = hi * 2^32 + lo (BigInt semantics: the quotient is
 * truncated, the remainder has v's sign), exact while |v / d| < 2^53.
 */
function divide(hi: number, lo: number, d: number): number {
  const qh = Math.floor(hi / d);
  const rh = hi - qh * d; // 0 <= rh < d
  const t = rh * HIGH + lo; // < d * 2^32 <= 2^53: exact
  let qt = Math.floor(t / d);
  let rt = t - qt * d;
  if (rt < 0) {
    qt--;
    rt += d;
  } else if (rt >= d) {
    qt++;
    rt -= d;
  }
  let q = qh * HIGH + qt; // the floored quotient
  if (hi < 0 && rt !== 0) {
    q += 1;
    rt -= d;
  }
  return q + rt / d;
}
