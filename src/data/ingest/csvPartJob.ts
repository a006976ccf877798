import type { DataErrorCode } from '../errors.js';
import type { PartColumn, PartDecision, PartSummary } from './partColumn.js';
import type { IngestReport } from './report.js';

/** What the worker of a CSV's later part is given (workerData): bytes [start, end) of `path`. */
export interface CsvPartJob {
  path: string;
  start: number;
  end: number;
  /** The file's header row, as read by the first part. */
  header: string[];
  label: string;
  forceInfer?: boolean;
  maxDictSize?: number;
  /** The whole file's size (bounds a text column like the one-pass ingest's). */
  totalBytes: number;
  /**
   * The worker's heartbeat (one Int32 over a SharedArrayBuffer): bumped as it starts, per chunk it
   * parses and per column it encodes; the parent stops a worker silent for its stall limit (csvPartThread.ts).
   */
  beat?: Int32Array;
}

/** What the part read, before it encodes its columns. */
export interface CsvPartCounts {
  rows: number;
  blankLines: number;
  raggedCount: number;
  /** Record numbers from 1 within the part. */
  raggedRecords: IngestReport['raggedRecords'];
  invalidCells: IngestReport['invalidCells'];
  malformedFields: number;
  unterminatedQuote: boolean;
  replacedInvalidUtf8: number;
  summaries: PartSummary[];
}

/** Worker -> parent messages, in order: `counts`, then (after a {@link CsvPartEncode}) `columns`; or `error` at any time. */
export type CsvPartMessage =
  | { counts: CsvPartCounts }
  | { columns: PartColumn[] }
  | { error: { code?: DataErrorCode; message: string; hint?: string } };

/** Parent -> worker: how to encode each column (decided from both parts' summaries). */
export interface CsvPartEncode {
  decisions: PartDecision[];
}
