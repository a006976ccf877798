import type { ColumnarTable, TextScanRequest } from '../../../schema/columnar.js';
import type { DatasetInfo } from '../../../schema/result.js';
import { openDataset, tableFromCsv } from '../../data/index.js';
import type { DataSourceSpec, TableSpec } from './protocol.js';
import type { TableProvider } from '../engines/engineSession.js';
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { decodeInWorker } from '../../data/formats/decodeInWorker.js';
import { DEFAULT_DECODE_CAPS } from '../../data/formats/decodeCaps.js';
import { openingWorkers, openLazyParquet } from '../../data/formats/lazyParquet/lazyParquetTable.js';
import { columnWorkers } from '../../data/formats/lazyParquet/columnWorkers.js';

/** The file's size; Infinity when it cannot be read (the table's open then says why). */
function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return Infinity;
  }
}

function fileStamp(path: string): string {
  try {
    const st = statSync(path);
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

/**
 * A Parquet/Arrow/JSON table file. Parquet and Arrow are opened for lazy decoding (lazyParquet/):
 * checked now, each column decoded when a run first touches it (SBIRTOOLS_LAZY_PARQUET=0,
 * SBIRTOOLS_LAZY_ARROW=0 decode every column now instead). Other formats are decoded whole in a worker thread of this process
 * (decodeInWorker.ts); the file is read synchronously (a few ms; its size was checked by loadTable)
 * so the worker has its job before this thread goes on to make the session's isolate.
 */
async function openFile(spec: Extract<TableSpec, { kind: 'file' }>): Promise<TableProvider> {
  if (spec.format === 'parquet' && process.env.SBIRTOOLS_LAZY_PARQUET !== '0')
    return openLazyParquet(spec.name, spec.path, basename(spec.path), { ...DEFAULT_DECODE_CAPS, ...spec.caps });
  if (spec.format === 'arrow' && process.env.SBIRTOOLS_LAZY_ARROW !== '0')
    return openLazyParquet(
      spec.name,
      spec.path,
      basename(spec.path),
      { ...DEFAULT_DECODE_CAPS, ...spec.caps },
      {
        format: 'arrow',
      },
    );
  return providerFromColumnar(
    await decodeInWorker(
      spec.name,
      new Uint8Array(readFileSync(spec.path)),
      basename(spec.path),
      spec.format,
      spec.caps,
    ),
  );
}

/**
 * Starts the column decode workers of the session's lazily read tables (Parquet, Arrow) now, so
 * their threads load while the engine and the isolate do; the tables' opens then find them ready.
 * As many as the table's open checks the file in (openingWorkers: one for an Arrow file or a small
 * Parquet file, whose columns are never split between two).
 */
export function startColumnWorkers(tables: readonly TableSpec[]): void {
  for (const spec of tables) {
    if (spec.kind !== 'file') continue;
    const lazy =
      (spec.format === 'parquet' && process.env.SBIRTOOLS_LAZY_PARQUET !== '0') ||
      (spec.format === 'arrow' && process.env.SBIRTOOLS_LAZY_ARROW !== '0');
    if (!lazy) continue;
    const { heapMb } = { ...DEFAULT_DECODE_CAPS, ...spec.caps };
    const pool = columnWorkers(heapMb);
    pool.start(heapMb, openingWorkers(pool.width, fileSize(spec.path), spec.format === 'arrow' ? 'arrow' : 'parquet'));
  }
}

/** Wrap an in-memory columnar table. */
export function providerFromColumnar(table: ColumnarTable): TableProvider {
  const byName = new Map(table.columns.map((c) => [c.name, c.data]));
  return {
    meta: {
      name: table.name,
      numRows: table.numRows,
      columns: table.columns.map(({ name, type, kind }) => ({ name, type, kind })),
    },
    loadColumn(name) {
      const data = byName.get(name);
      if (!data) throw new Error(`table ${table.name} has no column ${name}`);
      return data;
    },
  };
}

/**
 * Opens and keeps the tables of one holder process: award_data once per data source (from the
 * binary cache, columns loaded lazily), extra CSV tables once per path.
 */
export class TableCache {
  private datasets = new Map<
    string,
    Promise<{ provider: TableProvider; info: DatasetInfo; prefetch?: (names: string[]) => Promise<void> }>
  >();
  private csvTables = new Map<string, Promise<TableProvider>>();

  award(
    source: DataSourceSpec,
  ): Promise<{ provider: TableProvider; info: DatasetInfo; prefetch?: (names: string[]) => Promise<void> }> {
    const key = JSON.stringify(source);
    let entry = this.datasets.get(key);
    if (!entry) {
      entry = openDataset(source).then((ds: Awaited<ReturnType<typeof openDataset>>) => {
        // the threads a scan of long text shares its pages with (SBIRTOOLS_SCAN_PARALLEL=1) start now
        ds.warmScan?.();
        return {
          info: ds.info,
          // remote data: the columns a run names are fetched together before it starts (sessionHost.ts)
          ...(ds.prefetch ? { prefetch: (names: string[]) => ds.prefetch!(names) } : {}),
          provider: {
            meta: { ...ds.meta, name: 'award_data' },
            loadColumn: (name: string) => ds.loadColumn(name),
            // a page of long text read alone until the column is loaded whole (the first touch of Abstract)
            ...(ds.loadRows
              ? {
                  loadRows: (name: string, start: number, end: number, reuse?: boolean) =>
                    ds.loadRows!(name, start, end, reuse),
                }
              : {}),
            // a few rows of a column read alone until it is loaded whole (head(), one row of every column)
            ...(ds.loadWindow
              ? { loadWindow: (name: string, start: number, end: number) => ds.loadWindow!(name, start, end) }
              : {}),
            // lengths of long text from the cache's per-row counts (`.str.len()` reads no text)
            ...(ds.textLengths
              ? { textLengths: (name: string, start: number, end: number) => ds.textLengths!(name, start, end) }
              : {}),
            // `s.length` of long text from the same counts when the cache proves no row has a surrogate pair
            ...(ds.textUnits
              ? { textUnits: (name: string, start: number, end: number) => ds.textUnits!(name, start, end) }
              : {}),
            // `d.Abstract === 'N/A'` from the cache's short-row index: no text read
            ...(ds.textEquals
              ? {
                  textEquals: (name: string, start: number, end: number, needle: string) =>
                    ds.textEquals!(name, start, end, needle),
                }
              : {}),
            // a contains over long text not loaded yet: every page read, checked and scanned in one pass
            ...(ds.textScanPages
              ? {
                  textScanPages: (name: string, req: TextScanRequest, pageRows: number) =>
                    ds.textScanPages!(name, req, pageRows),
                }
              : {}),
            // the read path run once in idle time, before a session's first column (idleWarmUp.ts)
            ...(ds.warmReads ? { warmReads: () => ds.warmReads!() } : {}),
          },
        };
      });
      entry.catch(() => this.datasets.delete(key));
      this.datasets.set(key, entry);
    }
    return entry!;
  }

  async table(spec: TableSpec): Promise<TableProvider> {
    if (spec.kind === 'columnar') return providerFromColumnar({ ...spec.table, name: spec.name });
    // a decoded file is kept while the file is unchanged (size and mtime are part of the key); a
    // changed file is read again and the entry of its earlier content let go
    const prefix = `${spec.kind}\u0000${spec.name}\u0000${spec.path}\u0000`;
    const key = `${prefix}${fileStamp(spec.path)}${spec.kind === 'file' ? `\u0000${JSON.stringify(spec.caps ?? {})}` : ''}`;
    let entry = this.csvTables.get(key);
    if (!entry) {
      for (const old of [...this.csvTables.keys()]) if (old.startsWith(prefix)) this.csvTables.delete(old);
      entry = spec.kind === 'file' ? openFile(spec) : tableFromCsv(spec.name, spec.path).then(providerFromColumnar);
      entry.catch(() => this.csvTables.delete(key));
      this.csvTables.set(key, entry);
    }
    return entry!;
  }
}
