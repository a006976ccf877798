import type { ColumnarTable } from '../../../schema/columnar.js';
import { createHash } from 'node:crypto';
import { utf8Chunks, type ByteSourceStats } from './byteSource.js';
import { CsvRecords, ingestReport } from './csvRecords.js';
import type { IngestReport } from './report.js';
import { checkFirstChunk, emptyError, readError } from './ingestErrors.js';
import { hashFileInWorker } from './hashFile.js';

/** Progress of a long ingest, reported once per chunk read (about every 4 MiB). */
export interface IngestProgress {
  phase: 'parse';
  bytesRead: number;
  totalBytes: number;
  rows: number;
}

/** Options of {@link ingestCsv}. */
export interface IngestOptions {
  /** Table name. @default 'award_data' */
  name?: string;
  onProgress?: (p: IngestProgress) => void;
  /** Infer types even when the header is an SBIR header. @default false */
  forceInfer?: boolean;
  /** What the input is called in error messages. @default the path, or 'the CSV bytes' */
  label?: string;
  /** Most distinct values of a dictionary-coded text column. @default 65,535 (MAX_DICT_SIZE; user tables: USER_MAX_DICT_SIZE) */
  maxDictSize?: number;
}

/** A parsed table with its report and the sha256 of the raw input bytes. */
export interface IngestResult {
  table: ColumnarTable;
  report: IngestReport;
  sha256: string;
}

/**
 * Streams a CSV (a path, or bytes) into typed columns: SBIR headers are typed by
 * schema/sbirColumns.ts, any other header by inference over all rows. Never holds the file as
 * one string; bad rows and cells are reported, not fatal. The input's sha256 (the award data's
 * identity) is computed alongside; a user table, which needs none, uses {@link ingestCsvTable}.
 * @throws {DataError} DATA_NOT_FOUND, DATA_EMPTY (no header), DATA_NOT_CSV (binary or HTML), DATA_TOO_LARGE.
 * @example const { table, report } = await ingestCsv('/data/award_data.csv');
 */
export async function ingestCsv(input: string | Uint8Array, opts: IngestOptions = {}): Promise<IngestResult> {
  return (await ingest(input, opts, true)) as IngestResult;
}

/**
 * {@link ingestCsv} without the sha256: nothing reads the file a second time (a user's CSV table is
 * keyed by its path, size and mtime, never by its hash, so the hash worker only took a core).
 * @throws {DataError} as {@link ingestCsv}.
 * @example const { table } = await ingestCsvTable('/data/big.csv', { name: 'big' });
 */
export async function ingestCsvTable(
  input: string | Uint8Array,
  opts: IngestOptions = {},
): Promise<Omit<IngestResult, 'sha256'>> {
  return ingest(input, opts, false);
}

async function ingest(
  input: string | Uint8Array,
  opts: IngestOptions,
  withHash: boolean,
): Promise<Omit<IngestResult, 'sha256'> & { sha256?: string }> {
  const started = performance.now();
  const label = opts.label ?? (typeof input === 'string' ? input : 'the CSV bytes');
  const stats: ByteSourceStats = { totalBytes: 0, replacedInvalidUtf8: 0 };
  // a file is hashed on a worker thread, in parallel with the parse; bytes are hashed inline
  const hash = !withHash || typeof input === 'string' ? null : createHash('sha256');
  const fileHash = withHash && typeof input === 'string' ? hashFileInWorker(input) : null;
  const records = new CsvRecords({
    label,
    forceInfer: opts.forceInfer,
    maxDictSize: opts.maxDictSize,
    totalBytes: () => stats.totalBytes,
  });
  const { scanner } = records;

  let first = true;
  try {
    for await (const chunk of utf8Chunks(input, stats, hash ? (raw) => hash.update(raw) : undefined)) {
      if (first) checkFirstChunk(chunk.data, stats, label);
      first = false;
      scanner.push(chunk.data);
      opts.onProgress?.({
        phase: 'parse',
        bytesRead: chunk.bytesRead,
        totalBytes: stats.totalBytes,
        rows: records.rows,
      });
    }
    scanner.finish();
  } catch (err) {
    fileHash?.cancel();
    throw readError(err, label);
  }
  if (!records.plan) {
    fileHash?.cancel();
    throw emptyError(label);
  }
  const { table, report } = finishTable(records, opts.name ?? 'award_data', stats, started);
  if (!withHash) return { table, report };
  return { table, report, sha256: hash ? hash.digest('hex') : await fileHash!.done };
}

/** The table and report of a finished record loop (its scanner already finished). */
function finishTable(
  records: CsvRecords,
  name: string,
  stats: ByteSourceStats,
  started: number,
): { table: ColumnarTable; report: IngestReport } {
  const plan = records.plan!;
  const table: ColumnarTable = {
    name,
    numRows: records.rows,
    columns: plan.columns.map((c, i) => {
      const data = records.builders[i].finish();
      return { name: c.name, type: data.type, kind: data.kind, data };
    }),
  };
  const report = ingestReport(records, plan, stats, records.issues.list(), started);
  return { table, report };
}
