import type { ColumnData, TableMeta, TextScanRequest } from '../../schema/columnar.js';
import type { DatasetInfo } from '../../schema/result.js';
import type { IngestProgress } from './ingest/ingestCsv.js';
import type { IngestReport } from './ingest/report.js';

/** award_data, opened: its identity, its shape, and its columns on demand. */
export interface Dataset {
  info: DatasetInfo;
  meta: TableMeta;
  report: IngestReport;
  /** One column, synchronously (read from the binary cache on first use, then memoized). */
  loadColumn(name: string): ColumnData;
  /**
   * Optional: rows [start, end) of a utf8 column not loaded yet, read alone (offsets rebased to 0),
   * so a page of long text costs its own bytes; null when the whole column is loaded (slice it).
   * With `reuse` the bytes may be a view the next call overwrites (a page scanned and dropped).
   */
  loadRows?(name: string, start: number, end: number, reuse?: boolean): Extract<ColumnData, { kind: 'utf8' }> | null;
  /**
   * Optional: rows [start, end) of a number, date, boolean or dictionary column not loaded yet, read
   * alone (a dictionary column as the window's strings, utf8); null when it is better loaded whole.
   */
  loadWindow?(name: string, start: number, end: number): ColumnData | null;
  /** Optional: characters per row of rows [start, end) of a utf8 column (-1 for null) without reading its text; null when unknown. */
  textLengths?(name: string, start: number, end: number): Int32Array | null;
  /**
   * Optional: UTF-16 code units per row of rows [start, end) of a utf8 column (-1 for null, what
   * `s.length` gives) without reading its text; null when the source cannot prove them (read the bytes).
   */
  textUnits?(name: string, start: number, end: number): Int32Array | null;
  /**
   * Optional: per row of rows [start, end) of a utf8 column, 1 when it is exactly `needle`, 0 when
   * not, 2 for null, without reading its text; null when the source cannot tell (read the bytes).
   */
  textEquals?(name: string, start: number, end: number, needle: string): Uint8Array | null;
  /**
   * Optional: a contains or an equals over every row of a utf8 column not loaded yet, per page of
   * `pageRows` rows (null for a page left to the guest), read from the cache on every core; null
   * when the source cannot (scan page by page with loadRows).
   */
  textScanPages?(name: string, req: TextScanRequest, pageRows: number): (Uint8Array | null)[] | null;
  /** Optional: start the threads textScanPages shares its pages with, ahead of the first scan; never throws. */
  warmScan?(): void;
  /** Optional: run the column read path once in idle time, keeping nothing (cache/readCache.ts warmReads). */
  warmReads?(): void;
  /**
   * Optional (remote data): fetch these columns ahead of their first touch, in parallel; never
   * throws (the first touch reports a failure). Names that are not columns are ignored.
   */
  prefetch?(names: string[]): Promise<void>;
  /** Releases the cache file handle; loaded columns stay usable. Idempotent. */
  close(): void;
}

/** Progress of {@link openDataset}: generating the sample, parsing the CSV, writing the cache. */
export type DatasetProgress = IngestProgress | { phase: 'generate' | 'write-cache' };
