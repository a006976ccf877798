/** to_csv, to_json, to_arrow, to_parquet: a table as a named file of the run (see files.ts). */
import * as aq from 'arquero';
import type { ColumnTable } from 'arquero';
import { utf8Encode } from '../polyfills/utf8.js';
import { columnsOf, fileTable } from '../files/columnsOf.js';
import { writeCsv } from '../files/csv/writeCsv.js';
import { jsonText } from '../files/json.js';
import { writeParquet } from '../files/parquet/writeParquet.js';
import {
  checkFileSize,
  checkNewFile,
  fileBytesLeft,
  fileName,
  requireFiles,
  saveFile,
  type SavedFile,
} from './files.js';
import type { SizeLimit } from '../files/parquet/writeParquet.js';
import { GuestError } from '../errors/guestError.js';

/** The run's byte cap as the writers see it: they stop before taking memory for a file that cannot be saved. */
function limitOf(file: string): SizeLimit {
  requireFiles();
  checkNewFile(file); // before the writer spends time on a file that cannot be saved
  return { bytes: fileBytesLeft(file), overLimit: (bytes) => checkFileSize(file, bytes, true) };
}

/**
 * Saves `t` as CSV (header row, nulls empty, dates ISO-8601 UTC), written as UTF-8 bytes row by
 * row from the columns (files/csv/). Text cells a spreadsheet would run as a formula (starting
 * with `=`, `+`, `-`, `@`, tab or CR, and not a plain number such as `-5`) get a leading `'`;
 * `{ escapeFormulas: false }` writes them as they are.
 * @example to_csv(merge(portfolio, award_data, { on: 'UEI' }), 'joined.csv')
 */
export function to_csv(t: unknown, name?: string, options?: { escapeFormulas?: boolean }): SavedFile {
  const table = fileTable(t, 'to_csv');
  const file = fileName(name, 'result.csv', '.csv');
  const escape = options?.escapeFormulas ?? true;
  if (typeof escape !== 'boolean') {
    throw new GuestError(
      'TypeError',
      `to_csv: escapeFormulas must be true or false, got ${JSON.stringify(escape)}`,
      "Use to_csv(t, 'result.csv') (formulas escaped) or to_csv(t, 'result.csv', { escapeFormulas: false }).",
    );
  }
  return saveFile(file, 'text/csv', writeCsv(table, limitOf(file), escape));
}

/**
 * Saves `t` as a JSON array of row objects, or NDJSON when the name ends in .ndjson or .jsonl.
 * @example to_json(t, 'rows.ndjson')
 */
export function to_json(t: unknown, name?: string): SavedFile {
  const { columns, numRows } = columnsOf(t, 'to_json');
  const file = fileName(name, 'result.json', '.json');
  const lines = /\.(ndjson|jsonl)$/i.test(file);
  return saveFile(
    file,
    lines ? 'application/x-ndjson' : 'application/json',
    utf8Encode(jsonText(columns, numRows, lines)),
  );
}

/**
 * Saves `t` as Parquet, written in the sandbox column by column (files/parquet/): integers INT64,
 * numbers DOUBLE, dates TIMESTAMP (ms, UTC), booleans BOOLEAN, text UTF-8 (objects as JSON text;
 * repeated text dictionary-encoded). Pages are uncompressed (the fast default);
 * `{ compression: 'snappy' }` compresses the integer and date columns (smaller, slower).
 * @example to_parquet(t, 'result.parquet', { compression: 'snappy' })
 */
export function to_parquet(t: unknown, name?: string, options?: { compression?: 'none' | 'snappy' }): SavedFile {
  const table = fileTable(t, 'to_parquet');
  const file = fileName(name, 'result.parquet', '.parquet');
  const compression = options?.compression ?? 'none';
  if (compression !== 'none' && compression !== 'snappy') {
    throw new GuestError(
      'TypeError',
      `to_parquet: compression must be 'none' or 'snappy', got ${JSON.stringify(compression)}`,
      "Use to_parquet(t, 'result.parquet') or to_parquet(t, 'result.parquet', { compression: 'snappy' }).",
    );
  }
  return saveFile(
    file,
    'application/vnd.apache.parquet',
    writeParquet(table, undefined, limitOf(file), compression === 'snappy'),
  );
}

/**
 * Saves `t` as an Arrow IPC file (Arquero's Arrow encoder).
 * @example to_arrow(t, 'result.arrow')
 */
export function to_arrow(t: unknown, name?: string): SavedFile {
  columnsOf(t, 'to_arrow'); // the same checks and errors as the other writers
  // a null-prototype `types`: Arquero looks each column name up in it, and a column named
  // `__proto__` or `constructor` must find nothing there, not Object.prototype's members
  const bytes = aq.toArrowIPC(t as ColumnTable, {
    format: 'file',
    types: Object.create(null) as Record<string, never>,
  });
  return saveFile(fileName(name, 'result.arrow', '.arrow'), 'application/vnd.apache.arrow.file', bytes);
}
