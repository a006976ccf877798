import type { TableProvider } from './engineSession.js';

// No `node:` import: the QuickJS engine that uses these also runs on the edge (src/edge/).

/** The data source as the guest sees it: a file's name, never the host's absolute path. */
export function guestVisibleSource(source: string): string {
  return /^(\/|[A-Za-z]:[\\/]|\.{1,2}[\\/])/.test(source) ? source.split(/[\\/]/).pop()! : source;
}

/**
 * Load a column for the guest. A data-layer failure (a damaged cache, which is deleted and rebuilt
 * on the next open) reaches the guest as a message without host paths.
 */
export function guestLoad(
  provider: TableProvider,
  table: string,
  column: string,
): ReturnType<TableProvider['loadColumn']> {
  try {
    return provider.loadColumn(column);
  } catch (err) {
    throw guestLoadError(err, table, column);
  }
}

/**
 * Load a column the guest copies whole and keeps (bridge.fetchColumn): through `takeColumn` when
 * the provider has it, so the column lives once, in the isolate; failures as guestLoad's.
 */
export function guestTake(
  provider: TableProvider,
  table: string,
  column: string,
): ReturnType<TableProvider['loadColumn']> {
  if (!provider.takeColumn) return guestLoad(provider, table, column);
  try {
    return provider.takeColumn(column);
  } catch (err) {
    throw guestLoadError(err, table, column);
  }
}

/** A column's kind for the guest (provider.columnKind: a lazily decoded column is decoded now), failures as guestLoad's. */
export function guestKind(provider: TableProvider, table: string, column: string): string {
  try {
    return provider.columnKind!(column);
  } catch (err) {
    throw guestLoadError(err, table, column);
  }
}

/** Pages of one column read alone (provider.loadRows) before the column is loaded whole. */
const LAZY_PAGES = 16;

/**
 * Rows [start, end) of a utf8 column for the guest, as `{ data, start, end }` over which to slice:
 * while a session has read fewer than 16 pages of the column and the provider can read a range
 * alone (the binary cache), only those rows' bytes are read (printing a few rows of Abstract reads
 * kilobytes); after that, or without `loadRows`, the whole column is loaded once and kept.
 * `counts` is the session's pages read per column.
 */
export function guestRows(
  provider: TableProvider,
  table: string,
  column: string,
  start: number,
  end: number,
  counts: Map<string, number>,
): { data: ReturnType<TableProvider['loadColumn']>; start: number; end: number } {
  const key = `${table}\u0000${column}`;
  const seen = counts.get(key) ?? 0;
  if (provider.loadRows && seen < LAZY_PAGES) {
    // reuse: the page is decoded into strings (textPage) before the next read overwrites it
    const rows = guestPageRows(provider, table, column, start, end);
    if (rows) {
      counts.set(key, seen + 1);
      return { data: rows, start: 0, end: end - start };
    }
  }
  return { data: guestLoad(provider, table, column), start, end };
}

/**
 * Rows [start, end) of a utf8 column read alone from the binary cache into the provider's reused
 * buffer (`provider.loadRows(..., reuse)`: use it before the next read), or null when the provider
 * cannot; a RangeError (the isolate's memory) passes as it is, other failures as guestLoad's.
 */
export function guestPageRows(
  provider: TableProvider,
  table: string,
  column: string,
  start: number,
  end: number,
): ReturnType<TableProvider['loadColumn']> | null {
  return guestRead(table, column, () => provider.loadRows!(column, start, end, true));
}

/**
 * Rows [start, end) of a non-text column read alone for the guest (provider.loadWindow), or null
 * when the provider cannot (the guest then loads the column whole); failures as guestLoad's.
 */
export function guestWindow(
  provider: TableProvider,
  table: string,
  column: string,
  start: number,
  end: number,
): ReturnType<TableProvider['loadColumn']> | null {
  if (!provider.loadWindow) return null;
  return guestRead(table, column, () => provider.loadWindow!(column, start, end));
}

/**
 * A read of part of a column for the guest: a RangeError (the isolate's memory) passes as it is,
 * any other failure as guestLoad's (guestLoadError).
 * @example guestRead('award_data', 'Abstract', () => provider.textLengths!('Abstract', 0, 4096));
 */
export function guestRead<T>(table: string, column: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof RangeError) throw err;
    throw guestLoadError(err, table, column);
  }
}

/** The codes of a table file that fails as one of its columns is decoded on first use. */
const DECODE_CODES = new Set([
  'DATA_CORRUPT',
  'DATA_TOO_LARGE',
  'DATA_OUT_OF_RANGE',
  'DATA_DECODE_FAILED',
  'DATA_UNSUPPORTED',
]);

/** A data-layer failure as the guest sees it: a message without host paths, the error's class kept. */
export function guestLoadError(err: unknown, table: string, column: string): unknown {
  const code = (err as { code?: unknown }).code;
  // a column over the edge's memory budget (src/edge/): its message names the column and the limit
  if (code === 'COLUMN_TOO_LARGE') return err;
  // a table file's column that cannot be decoded (lazy Parquet): the file's own error, named by file name only
  if (typeof code === 'string' && DECODE_CODES.has(code) && err instanceof Error) {
    const hint = (err as { hint?: unknown }).hint;
    err.message = `column '${column}' of ${table} could not be decoded: ${err.message}${typeof hint === 'string' ? ` ${hint}` : ''} (${code})`;
    err.stack = `${err.name}: ${err.message}`;
    return err;
  }
  const e = new Error(
    code === 'COLUMN_NOT_FOUND'
      ? `table ${table} has no column '${column}'`
      : code === 'DATA_FETCH_FAILED'
        ? `column '${column}' of ${table} could not be fetched from its remote data folder: ${(err as Error).message} Nothing was cached; run the code again, or use other columns`
        : `column '${column}' of ${table} could not be loaded${code === 'CACHE_CORRUPT' ? ': the cached column is corrupt' : ''}${typeof code === 'string' ? ` (${code})` : ''}; the data cache is rebuilt on the next session, so run the code again`,
  );
  // keep the original error object (its class name crosses into the isolate), only its message changes
  if (err instanceof Error) {
    err.message = e.message;
    err.stack = `${err.name}: ${e.message}`;
    return err;
  }
  return e;
}
