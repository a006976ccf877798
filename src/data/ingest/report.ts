/** What an ingest found: shape, layout and every data quality issue, with record numbers. */
export interface IngestReport {
  /** 'current' / 'legacy': an SBIR award file typed by schema/sbirColumns.ts; 'custom': any other CSV, types inferred. */
  layout: 'current' | 'legacy' | 'custom';
  /** Data records (the header excluded; blank lines excluded). */
  rows: number;
  columns: number;
  /** Bytes of input read. */
  bytes: number;
  /** Records whose field count differs from the header's (1-based data record numbers), first {@link MAX_LISTED} only. */
  raggedRecords: Array<{ record: number; fields: number }>;
  /** All ragged records, listed or not. Missing trailing cells are null; extra cells are dropped. */
  raggedCount: number;
  /** Header names that are not SBIR columns (kept as string columns). Empty for 'custom'. */
  unknownColumns: string[];
  /** SBIR columns the header lacks (not added to the table). Empty for 'custom'. */
  missingColumns: string[];
  /** Header names changed: legacy aliases (`Women Owned` -> `Woman Owned`), blanks and duplicates. */
  renamedColumns: Array<{ from: string; to: string }>;
  /** Cells that did not fit their column's rule (stored null, or kept for flags), by column. */
  invalidCells: Array<{
    column: string;
    count: number;
    reason: string;
    examples: Array<{ record: number; value: string }>;
  }>;
  /** U+FFFD characters written in place of invalid UTF-8 bytes. */
  replacedInvalidUtf8: number;
  /** Empty lines skipped between records. */
  blankLines: number;
  /** Quoted fields followed by stray text (`"ab"c`), kept raw. */
  malformedFields: number;
  /** True when the file ended inside a quoted field; the last record then runs to the end of the file. */
  unterminatedQuote: boolean;
  /** Other notes for the operator (e.g. the binary cache could not be written). */
  warnings: string[];
  elapsedMs: number;
}

/** Longest list kept for ragged records; examples per invalid column are capped at 5. */
export const MAX_LISTED = 100;
const MAX_EXAMPLES = 5;

/** Collects invalid cells while builders run; the record number comes from a shared cursor. */
export class IssueLog {
  /** 1-based number of the data record being built. */
  record = 0;
  private readonly byColumn = new Map<string, IngestReport['invalidCells'][number]>();

  /** Records one invalid cell; `value` is built lazily, only for the first examples. */
  invalid(column: string, reason: string, value: () => string): void {
    let entry = this.byColumn.get(column);
    if (!entry) {
      entry = { column, count: 0, reason, examples: [] };
      this.byColumn.set(column, entry);
    }
    entry.count++;
    if (entry.examples.length < MAX_EXAMPLES)
      entry.examples.push({ record: this.record, value: value().slice(0, 200) });
  }

  /** The collected entries, in the order columns first failed. */
  list(): IngestReport['invalidCells'] {
    return [...this.byColumn.values()];
  }
}
