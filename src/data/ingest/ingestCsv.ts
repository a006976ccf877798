import { createHash } from 'node:crypto';
import type { ColumnarTable } from '../../../schema/columnar.js';
import { DataError } from '../errors.js';
import { sniffNotCsv, utf8Chunks, type ByteSourceStats } from './byteSource.js';
import { DEFAULT_DECODE_CAPS } from '../formats/decodeCaps.js';
import { planHeader, type HeaderPlan } from './layout.js';
import { RecordScanner, ESCAPED } from './scanner.js';
import { IssueLog, MAX_LISTED, type IngestReport } from './report.js';
import { makeBuilder, type ColumnBuilder } from './makeBuilder.js';
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
 * one string; bad rows and cells are reported, not fatal.
 * @throws {DataError} DATA_NOT_FOUND, DATA_EMPTY (no header), DATA_NOT_CSV (binary or HTML), DATA_TOO_LARGE.
 * @example const { table, report } = await ingestCsv('/data/award_data.csv');
 */
export async function ingestCsv(input: string | Uint8Array, opts: IngestOptions = {}): Promise<IngestResult> {
  const started = performance.now();
  const label = opts.label ?? (typeof input === 'string' ? input : 'the CSV bytes');
  const stats: ByteSourceStats = { totalBytes: 0, replacedInvalidUtf8: 0 };
  // a file is hashed on a worker thread, in parallel with the parse; bytes are hashed inline
  const hash = typeof input === 'string' ? null : createHash('sha256');
  const fileHash = typeof input === 'string' ? hashFileInWorker(input) : null;
  const issues = new IssueLog();
  let plan: HeaderPlan | null = null;
  let builders: ColumnBuilder[] = [];
  let rows = 0;
  let blankLines = 0;
  let raggedCount = 0;
  const raggedRecords: IngestReport['raggedRecords'] = [];

  const scanner = new RecordScanner((buf, starts, ends, flags, n) => {
    const blank = n === 1 && starts[0] === ends[0] && flags[0] === 0;
    if (!plan) {
      if (blank) return;
      // every column gets its builders: bound the work by the header before any is made
      if (n > DEFAULT_DECODE_CAPS.maxColumns) {
        throw new DataError(
          'DATA_TOO_LARGE',
          `${label}: the header names ${n} columns, more than ${DEFAULT_DECODE_CAPS.maxColumns}`,
          {
            hint: 'Load fewer columns: select the ones you need before writing the file, or reshape it long (one row per key and value).',
          },
        );
      }
      const header = Array.from({ length: n }, (_, i) => fieldText(buf, starts[i], ends[i], flags[i]));
      plan = planHeader(header, opts.forceInfer);
      // U+FFFD repairs can triple invalid bytes; nothing else makes a column larger than the input
      const maxBytes = 3 * stats.totalBytes + 65536;
      builders = plan.columns.map((c) => makeBuilder(c, issues, maxBytes, opts.maxDictSize));
      return;
    }
    const width = builders.length;
    if (blank && width > 1) {
      blankLines++;
      return;
    }
    issues.record = ++rows;
    if (n !== width && raggedCount++ < MAX_LISTED) raggedRecords.push({ record: rows, fields: n });
    for (let c = 0; c < width; c++) {
      if (c < n) builders[c].add(buf, starts[c], ends[c], flags[c]);
      else builders[c].addNull();
    }
  });

  let first = true;
  try {
    for await (const chunk of utf8Chunks(input, stats, hash ? (raw) => hash.update(raw) : undefined)) {
      if (first) {
        const why = sniffNotCsv(chunk.data);
        if (why || stats.replacedInvalidUtf8 > chunk.data.length / 100) {
          throw new DataError(
            'DATA_NOT_CSV',
            `${label} is not a CSV file: ${why ?? 'it is mostly invalid UTF-8 (binary data)'}. Pass a comma-separated text file with a header row.`,
          );
        }
        first = false;
      }
      scanner.push(chunk.data);
      opts.onProgress?.({ phase: 'parse', bytesRead: chunk.bytesRead, totalBytes: stats.totalBytes, rows });
    }
    scanner.finish();
  } catch (err) {
    fileHash?.cancel();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new DataError('DATA_NOT_FOUND', `CSV file not found: ${label}. Check the path (or SBIRTOOLS_CSV_PATH).`, {
        cause: err,
      });
    }
    if (code === 'EISDIR' || code === 'EACCES' || code === 'EPERM' || code === 'EIO') {
      throw new DataError('DATA_READ_ERROR', `Cannot read ${label} (${code}). Pass a readable CSV file.`, {
        cause: err,
      });
    }
    throw err;
  }
  const done = plan as HeaderPlan | null;
  if (!done) {
    fileHash?.cancel();
    throw new DataError('DATA_EMPTY', `${label} is empty: a CSV needs at least a header row naming its columns.`);
  }
  const table: ColumnarTable = {
    name: opts.name ?? 'award_data',
    numRows: rows,
    columns: done.columns.map((c, i) => {
      const data = builders[i].finish();
      return { name: c.name, type: data.type, kind: data.kind, data };
    }),
  };
  const report: IngestReport = {
    layout: done.layout,
    rows,
    columns: table.columns.length,
    bytes: stats.totalBytes,
    raggedRecords,
    raggedCount,
    unknownColumns: done.unknownColumns,
    missingColumns: done.missingColumns,
    renamedColumns: done.renamedColumns,
    invalidCells: issues.list(),
    replacedInvalidUtf8: stats.replacedInvalidUtf8,
    blankLines,
    malformedFields: scanner.malformedFields,
    unterminatedQuote: scanner.unterminatedQuote,
    warnings: [],
    elapsedMs: Math.round(performance.now() - started),
  };
  return { table, report, sha256: hash ? hash.digest('hex') : await fileHash!.done };
}

function fieldText(buf: Buffer, s: number, e: number, flags: number): string {
  const text = buf.toString('utf8', s, e);
  return flags & ESCAPED ? text.replaceAll('""', '"') : text;
}
