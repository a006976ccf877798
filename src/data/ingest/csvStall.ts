import { DataError } from '../errors.js';

/** The environment variable that sets how long the second thread of a CSV parse may make no progress, in ms. */
export const CSV_STALL_ENV = 'SBIRTOOLS_CSV_STALL_MS';

/** The default stall limit: the column workers' (lazyParquet/columnWorkers.ts STALL_MS). */
export const CSV_STALL_MS = 15_000;

/**
 * How long the worker that parses the second half of a CSV (csvPartThread.ts) may go without
 * progress (no chunk parsed, no column encoded) before it is stopped: `SBIRTOOLS_CSV_STALL_MS`, else
 * 15 s. A chunk is a few MiB, parsed in tens of ms on an idle core, so only a stuck parser or a read
 * that never returns comes near it; a host saturated many times over may need more.
 * @throws {DataError} DATA_UNSUPPORTED when the variable is not a whole number of ms from 100 to 3,600,000.
 * @example csvStallMs({ SBIRTOOLS_CSV_STALL_MS: '60000' }) // 60000
 */
export function csvStallMs(env: Record<string, string | undefined> = process.env): number {
  const raw = env[CSV_STALL_ENV];
  if (raw === undefined || raw === '') return CSV_STALL_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 100 || ms > 3_600_000)
    throw new DataError('DATA_UNSUPPORTED', `${CSV_STALL_ENV}=${JSON.stringify(raw)} is not a time in ms`, {
      hint: `Set ${CSV_STALL_ENV} to a whole number of milliseconds from 100 to 3600000 (e.g. 60000), or unset it for ${CSV_STALL_MS / 1000} s.`,
    });
  return ms;
}
