import type { TableProvider } from '../engines/engineSession.js';
import type { RunError } from '../../../schema/errors.js';

/**
 * Before a run starts, decodes the columns its code names in the session's lazily decoded tables
 * (Parquet, Arrow: lazyParquet/lazyParquetTable.ts prefetch), all at once: the first run of a
 * group-by names its key and its value, and decoded one after the other as the guest touches them
 * one column waits for the other while a worker idles. `named` is collectColumnNames' superset
 * (null: the code reads columns it does not name; nothing is decoded ahead then). Done before the
 * run, not beside it, so the memory the decode takes is the table's (the holder's guards), never
 * the run's; bounded by `withinMs`, the run's time left.
 * @returns the ms it took (0 when there was nothing to decode ahead).
 * @example const spent = prefetchTables(entry.tables, collectColumnNames(code), remainingMs);
 */
export function prefetchTables(
  tables: readonly TableProvider[] | undefined,
  named: readonly string[] | null,
  withinMs: number,
): number {
  if (!named || !tables) return 0;
  const start = performance.now();
  for (const table of tables) {
    const ms = withinMs - (performance.now() - start);
    if (ms < 1) break;
    table.prefetch?.(named, ms);
  }
  return performance.now() - start;
}

/**
 * The run's error when decoding the columns its code names ahead took its whole time limit: the
 * code did not run, so the session's state is kept (as for code that could not be checked in time).
 * @example prefetchTimeout(30_000).type // 'TIMEOUT'
 */
export function prefetchTimeout(timeoutMs: number): RunError {
  return {
    type: 'TIMEOUT',
    message: `Decoding the table columns the code names took the whole ${timeoutMs} ms time limit, so the code did not run.`,
    hint: 'Raise the time limit (the `timeoutMs` option, CLI --timeout-ms) for the first run over a large table, or read fewer columns in it; the columns decoded so far are kept, and the session state is kept.',
  };
}
