import { SbirtoolsError } from '../core/errors.js';
/**
 * Stable codes of host-side data failures (download, ingest, cache). One row each in
 * docs/dataset.md ("Errors"). Codes never change meaning; new failures get new codes.
 */
export const DATA_ERROR_CODES = [
  'DATA_NOT_FOUND',
  'DATA_EMPTY',
  'DATA_NOT_CSV',
  'DATA_TOO_LARGE',
  'DATA_READ_ERROR',
  'COLUMN_NOT_FOUND',
  'CACHE_CORRUPT',
  'DOWNLOAD_BAD_URL',
  'DOWNLOAD_UNREACHABLE',
  'DOWNLOAD_HTTP_ERROR',
  'DOWNLOAD_TOO_MANY_REDIRECTS',
  'DOWNLOAD_STALLED',
  'DOWNLOAD_TRUNCATED',
  'DOWNLOAD_NOT_CSV',
  'DOWNLOAD_IN_PROGRESS',
  'DISK_FULL',
  'CACHE_DIR_UNWRITABLE',
  'DATA_CORRUPT',
  'DATA_UNSUPPORTED',
  'DATA_SCHEMA_MISMATCH',
  'DATA_DECODE_FAILED',
  'DOWNLOAD_DEADLINE',
  'DOWNLOAD_BLOCKED',
  'DATA_OUT_OF_RANGE',
  'DATA_FETCH_FAILED',
] as const;
export type DataErrorCode = (typeof DATA_ERROR_CODES)[number];

/**
 * A failure of the data layer. `code` is stable; `message` says what failed and what to do.
 * @example
 * try { await openDataset(src); } catch (e) { if (e instanceof DataError && e.code === 'DATA_NOT_FOUND') ... }
 */
export class DataError extends SbirtoolsError {
  override readonly name = 'DataError';
  declare readonly code: DataErrorCode;
  /** What to do about it, when the message alone does not say (table formats set it). */
  readonly hint?: string;
  /** DATA_FETCH_FAILED: the host that failed (`name:port`). */
  readonly host?: string;
  /** DATA_FETCH_FAILED: the path of the request that failed. */
  readonly path?: string;
  /** DATA_FETCH_FAILED: the HTTP status, when the server answered. */
  readonly status?: number;

  constructor(
    code: DataErrorCode,
    message: string,
    options?: { cause?: unknown; hint?: string; host?: string; path?: string; status?: number },
  ) {
    super(code, message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    if (options?.hint) this.hint = options.hint;
    if (options?.host !== undefined) this.host = options.host;
    if (options?.path !== undefined) this.path = options.path;
    if (options?.status !== undefined) this.status = options.status;
  }
}

/** True for errors Node raises when a disk or quota is full. */
export function isDiskFull(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** True for errors meaning the directory cannot be written. */
export function isUnwritable(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EACCES' || code === 'EPERM' || code === 'EROFS';
}
