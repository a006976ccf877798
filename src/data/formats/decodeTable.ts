import type { ColumnarTable } from '../../../schema/columnar.js';
import { DataError } from '../errors.js';
import { checkColumnNames } from './checkColumnNames.js';
import { checkDateRange } from './checkDateRange.js';
import { capHint, type DecodeCaps } from './decodeCaps.js';
import type { DecodedParquet } from './parquet.js';
import type { TablePart } from './parquetParts.js';

/** A binary table format decoded in the worker (CSV has its own hardened ingest). */
export type DecodedFormat = 'parquet' | 'arrow' | 'json' | 'ndjson';

/**
 * Decode a table file's bytes by format, in the calling thread (the decode worker's body).
 * Each format's reader is imported when first needed: a fresh decode worker then compiles only
 * the reader it runs (the JSON reader pulls in the row-table and CSV code, ~0.3 s to load on the
 * 2-core VM, which a Parquet decode would otherwise pay; docs/benchmarks.md, issue 16).
 * With `part` (Parquet only) just that part's columns are decoded, and `leaves` says which.
 * A date beyond JavaScript's range is refused (checkDateRange.ts), and so are column names that
 * cannot be kept exactly (checkColumnNames.ts).
 * @throws {DataError} the format's typed errors, DATA_OUT_OF_RANGE.
 * @example await decodeTable('t', bytes, 't.parquet', 'parquet', DEFAULT_DECODE_CAPS)
 */
export async function decodeTable(
  name: string,
  bytes: Uint8Array,
  file: string,
  format: DecodedFormat,
  caps: DecodeCaps,
  part?: TablePart,
): Promise<ColumnarTable | DecodedParquet> {
  if (part && format !== 'parquet') throw new Error(`only Parquet files are decoded in parts, not ${format}`);
  if (bytes.byteLength > caps.maxInputBytes) {
    throw new DataError(
      'DATA_TOO_LARGE',
      `${file}: ${bytes.byteLength} bytes, more than the ${caps.maxInputBytes}-byte limit for a table file`,
      { hint: capHint('maxInputBytes', caps, 'Filter or aggregate the data first, or load fewer columns.') },
    );
  }
  const table = await decodeAs(name, bytes, file, format, caps, part);
  checkColumnNames(
    table.columns.map((c) => c.name),
    file,
    caps,
  );
  checkDateRange(table, file);
  return table;
}

async function decodeAs(
  name: string,
  bytes: Uint8Array,
  file: string,
  format: DecodedFormat,
  caps: DecodeCaps,
  part?: TablePart,
): Promise<ColumnarTable | DecodedParquet> {
  switch (format) {
    case 'parquet':
      return (await import('./parquet.js')).decodeParquet(name, bytes, file, caps, part ? { part } : {});
    case 'arrow':
      return (await import('./arrow.js')).decodeArrow(name, bytes, file, caps);
    default:
      return (await import('./json.js')).decodeJson(name, bytes, file, caps, format);
  }
}
