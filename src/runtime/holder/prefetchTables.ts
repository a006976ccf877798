import type { TableProvider } from '../engines/engineSession.js';

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
