/**
 * The columnar transfer format: how a table travels from the host (after CSV ingest or
 * from the binary cache) into an isolate. Plain typed arrays only: they cross process
 * boundaries (structured clone over IPC) and isolate boundaries (isolated-vm ExternalCopy)
 * without ever becoming row objects or JSON.
 *
 * Null handling is explicit: `valid[i] === 0` means row i is null (for every kind).
 * Strings are UTF-8; `offsets` has numRows + 1 entries (value i is bytes[offsets[i]..offsets[i+1]]).
 */

/** The logical type of a column, as shown to users by `dtypes`. */
export type ColumnType = 'number' | 'integer' | 'date' | 'string' | 'boolean';

/** 64-bit floats; integers and dates use this too (dates: ms since 1970-01-01T00:00:00Z, UTC). */
export interface Float64Column {
  kind: 'float64';
  type: 'number' | 'integer' | 'date';
  values: Float64Array;
  valid: Uint8Array;
}

/** Low-cardinality strings: codes into a dictionary; code -1 is null. */
export interface DictColumn {
  kind: 'dict';
  type: 'string';
  codes: Int32Array;
  /** The distinct values, UTF-8 encoded back to back. */
  dictBytes: Uint8Array;
  /** dictionary size + 1 offsets into dictBytes. */
  dictOffsets: Int32Array;
}

/** High-cardinality or long text: UTF-8 bytes + offsets + validity. */
export interface Utf8Column {
  kind: 'utf8';
  type: 'string';
  bytes: Uint8Array;
  offsets: Int32Array;
  valid: Uint8Array;
}

/** Booleans (only for user tables; SBIR flags stay 'Y'|'N'|'U' strings). */
export interface BoolColumn {
  kind: 'bool';
  type: 'boolean';
  values: Uint8Array;
  valid: Uint8Array;
}

export type ColumnData = Float64Column | DictColumn | Utf8Column | BoolColumn;

/**
 * Rows [start, end) of a utf8 column already decoded to strings (natively, outside the isolate):
 * how long text reaches the isolate (docs/dataset.md "How long text reaches the isolate"). Each
 * row is its own string, so V8 stores a row that fits Latin-1 one byte per character whatever
 * its neighbours hold. Invalid UTF-8 decodes to U+FFFD within its row, as the WHATWG decoder
 * does (the same text the in-isolate decoder gives).
 */
export interface TextPage {
  kind: 'text';
  /** One entry per row: the text, or null for a null row. */
  rows: Array<string | null>;
  /** The characters' size in V8: 1 byte each for a row that fits Latin-1, else 2 (for cache budgets). */
  charBytes: number;
}

/**
 * A question about a utf8 column's rows answered by the host from the UTF-8 bytes
 * (bridge.textScan, src/data/columns/textScan.ts): `len` = characters (code points, what pandas'
 * `str.len()` counts) per row (Int32Array, -1 for null); `units` = UTF-16 code units per row, the
 * decoded string's `length` in JavaScript (Int32Array, -1 for null; more than `len` on a row with
 * characters outside the BMP); `contains` = whether the row holds the literal `needle` (Uint8Array: 1 yes, 0 no, 2 null),
 * case folded as `fold` says (`none`; `regex`: a RegExp `i` flag without `u`; `lower`:
 * `toLowerCase()` on both sides); `equals` = whether the row is exactly `needle` (`row === needle`;
 * Uint8Array: 1 yes, 0 no, 2 null).
 */
export type TextScanRequest =
  | { op: 'len' }
  | { op: 'units' }
  | { op: 'contains'; needle: string; fold: 'none' | 'regex' | 'lower' }
  | { op: 'equals'; needle: string }
  | { op: 'distinct' };

export interface ColumnMeta {
  name: string;
  type: ColumnType;
  kind: ColumnData['kind'];
  /**
   * The host decides the kind when it first loads the column (a text column of a lazily decoded
   * Parquet table: `dict` or `utf8`); until then `kind` is `utf8`, a guess. The isolate asks the
   * host (bridge.columnKind) before it picks how to read the column.
   */
  kindPending?: boolean;
}

/** A whole table in transfer form. `columns` keeps the file's column order. */
export interface ColumnarTable {
  name: string;
  numRows: number;
  columns: Array<ColumnMeta & { data: ColumnData }>;
}

/** Lightweight description of a table, without its data (what an isolate sees before it loads a column). */
export interface TableMeta {
  name: string;
  numRows: number;
  columns: ColumnMeta[];
}
