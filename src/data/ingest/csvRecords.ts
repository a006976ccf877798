import { DataError } from '../errors.js';
import { DEFAULT_DECODE_CAPS } from '../formats/decodeCaps.js';
import { planHeader, type HeaderPlan } from './layout.js';
import type { ByteSourceStats } from './byteSource.js';
import { RecordScanner, ESCAPED } from './scanner.js';
import { IssueLog, MAX_LISTED, type IngestReport } from './report.js';
import { makeBuilder, type ColumnBuilder } from './makeBuilder.js';

/** How a run of records is read: the header's typing rules and the input's bounds. */
export interface RecordsOptions {
  /** What the input is called in error messages. */
  label: string;
  /** Infer types even when the header is an SBIR header. */
  forceInfer?: boolean;
  /** Most distinct values of a dictionary-coded text column (dictEncode.ts). */
  maxDictSize?: number;
  /** The input's size in bytes: bounds any one text column (x3 for U+FFFD repairs). */
  totalBytes(): number;
}

/**
 * The record loop of a CSV ingest: the first non-blank record is the header, every later one
 * goes into the column builders. A part of a file after its first record starts from the
 * header's names (`header`), so its columns are planned and typed exactly as the whole file's.
 */
export class CsvRecords {
  plan: HeaderPlan | null = null;
  builders: ColumnBuilder[] = [];
  rows = 0;
  blankLines = 0;
  raggedCount = 0;
  readonly raggedRecords: IngestReport['raggedRecords'] = [];
  readonly issues = new IssueLog();
  readonly scanner: RecordScanner;
  /** The header's cells as read (before renaming), once the header is seen. */
  header: string[] | null = null;

  constructor(
    private readonly opts: RecordsOptions,
    header?: string[],
  ) {
    this.scanner = new RecordScanner((buf, starts, ends, flags, n) => this.record(buf, starts, ends, flags, n));
    if (header) this.start(header);
  }

  private start(header: string[]): void {
    const { opts } = this;
    // every column gets its builders: bound the work by the header before any is made
    if (header.length > DEFAULT_DECODE_CAPS.maxColumns) {
      throw new DataError(
        'DATA_TOO_LARGE',
        `${opts.label}: the header names ${header.length} columns, more than ${DEFAULT_DECODE_CAPS.maxColumns}`,
        {
          hint: 'Load fewer columns: select the ones you need before writing the file, or reshape it long (one row per key and value).',
        },
      );
    }
    this.header = header;
    this.plan = planHeader(header, opts.forceInfer);
    // U+FFFD repairs can triple invalid bytes; nothing else makes a column larger than the input
    const maxBytes = 3 * opts.totalBytes() + 65536;
    this.builders = this.plan.columns.map((c) => makeBuilder(c, this.issues, maxBytes, opts.maxDictSize));
  }

  private record(buf: Buffer, starts: Int32Array, ends: Int32Array, flags: Uint8Array, n: number): void {
    const blank = n === 1 && starts[0] === ends[0] && flags[0] === 0;
    if (!this.plan) {
      if (blank) return;
      if (n > DEFAULT_DECODE_CAPS.maxColumns) this.start(new Array<string>(n)); // throws before decoding n names
      this.start(Array.from({ length: n }, (_, i) => fieldText(buf, starts[i], ends[i], flags[i])));
      return;
    }
    const builders = this.builders;
    const width = builders.length;
    if (blank && width > 1) {
      this.blankLines++;
      return;
    }
    this.issues.record = ++this.rows;
    if (n !== width && this.raggedCount++ < MAX_LISTED) this.raggedRecords.push({ record: this.rows, fields: n });
    for (let c = 0; c < width; c++) {
      if (c < n) builders[c].add(buf, starts[c], ends[c], flags[c]);
      else builders[c].addNull();
    }
  }
}
/** The ingest report of a whole file read as `records` (parts joined: csvInParts.ts). */
export function ingestReport(
  records: Pick<CsvRecords, 'rows' | 'raggedRecords' | 'raggedCount' | 'blankLines'> & {
    scanner: Pick<RecordScanner, 'malformedFields' | 'unterminatedQuote'>;
  },
  plan: HeaderPlan,
  stats: ByteSourceStats,
  invalidCells: IngestReport['invalidCells'],
  started: number,
): IngestReport {
  return {
    layout: plan.layout,
    rows: records.rows,
    columns: plan.columns.length,
    bytes: stats.totalBytes,
    raggedRecords: records.raggedRecords,
    raggedCount: records.raggedCount,
    unknownColumns: plan.unknownColumns,
    missingColumns: plan.missingColumns,
    renamedColumns: plan.renamedColumns,
    invalidCells,
    replacedInvalidUtf8: stats.replacedInvalidUtf8,
    blankLines: records.blankLines,
    malformedFields: records.scanner.malformedFields,
    unterminatedQuote: records.scanner.unterminatedQuote,
    warnings: [],
    elapsedMs: Math.round(performance.now() - started),
  };
}

/** A field's text, `""` pairs collapsed. */
export function fieldText(buf: Buffer, s: number, e: number, flags: number): string {
  const text = buf.toString('utf8', s, e);
  return flags & ESCAPED ? text.replaceAll('""', '"') : text;
}
