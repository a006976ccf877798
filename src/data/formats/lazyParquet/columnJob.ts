import type { ColumnData, ColumnType } from '../../../../schema/columnar.js';
import type { DecodeCaps } from '../decodeCaps.js';

/**
 * A job for a column worker (columnWorker.ts): open a file, decode a leaf's row groups [from, to),
 * or forget a file. A file (Parquet or Arrow) is an open descriptor of the holder process (worker
 * threads share it) and its size, checked against the file cap when it was opened; workers read
 * only what they need.
 */
export type ColumnJob =
  | {
      op: 'open';
      id: number;
      fd: number;
      size: number;
      file: string;
      caps: DecodeCaps;
      format?: 'parquet' | 'arrow';
      /** Set once a worker of this process has checked the file (its row count): a Parquet footer is parsed, its page headers are not walked again. */
      checkedRows?: number;
    }
  | { op: 'column'; id: number; leaf: number; from: number; to: number }
  | { op: 'close'; id: number };

/** What a checked file holds: its rows, its columns, and per row group its rows and each column's stored bytes. */
export interface OpenedFile {
  numRows: number;
  /** `settled`: false when the type is known only once decoded (an INT64 column that may hold integers past 2^53 becomes exact text). */
  columns: Array<{ name: string; type: ColumnType; settled: boolean }>;
  groupRows: number[];
  groupBytes: number[][];
}

/**
 * A column worker's answer: the opened file or the column; `whole` = this column is decoded whole
 * only (ask one worker for all row groups); `reopen` = this worker does not know the file (it was
 * started after the file was opened); `error` = a typed DataError to rethrow.
 */
export type ColumnAnswer =
  | { ok: true; opened?: OpenedFile; column?: ColumnData }
  | { ok: false; whole?: true; reopen?: true; error?: { code: string; message: string; hint?: string } };
