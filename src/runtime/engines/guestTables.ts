import { basename } from 'node:path';
import type { TableProvider } from './engineSession.js';

/** The data source as the guest sees it: a file's name, never the host's absolute path. */
export function guestVisibleSource(source: string): string {
  return /^(\/|[A-Za-z]:[\\/]|\.{1,2}[\\/])/.test(source) ? basename(source) : source;
}

/**
 * Load a column for the guest. A data-layer failure (a damaged cache, which is deleted and rebuilt
 * on the next open) reaches the guest as a message without host paths.
 */
export function guestLoad(provider: TableProvider, table: string, column: string): ReturnType<TableProvider['loadColumn']> {
  try {
    return provider.loadColumn(column);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
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
      throw err;
    }
    throw e;
  }
}
