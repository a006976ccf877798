import type { ColumnData } from '../../../../schema/columnar.js';

/** A page's rows as the chunk reader hands them to a sink: the value bytes and the nulls. */
export interface PageRows {
  /** The page's (inflated) bytes; values are `buf[pos, end)`. */
  buf: Uint8Array;
  pos: number;
  end: number;
  /** The data page's value encoding, as hyparquet names it ('PLAIN', 'RLE_DICTIONARY', ...). */
  encoding: string;
  /** Rows in the page (nulls included). */
  rows: number;
  /** Definition level per row (1 = a value, 0 = null), or null when every row has a value. */
  defs: Int32Array | null;
  /** Rows with a value: the number of values encoded in `buf`. */
  nonNull: number;
}

/**
 * One column's builder in the columnar Parquet decoder: it receives the column's dictionary
 * pages and data pages in file order and writes the transfer form directly.
 * Implementations throw PageCorrupt for bytes that contradict themselves and NeedsFallback for
 * an encoding they leave to the hyparquet path.
 */
export interface ColumnSink {
  /** A dictionary page: `count` PLAIN values in `buf[pos, end)`; replaces the current one. */
  dictionary(buf: Uint8Array, pos: number, end: number, count: number): void;
  /** A data page's rows, appended after the rows so far. */
  page(p: PageRows): void;
  /** The finished column; every row of the table must have been appended. */
  finish(): ColumnData;
}
