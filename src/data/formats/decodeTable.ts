import type { ColumnarTable } from '../../../schema/columnar.js';
import { DataError } from '../errors.js';
import { decodeArrow } from './arrow.js';
import type { DecodeCaps } from './decodeCaps.js';
import { decodeJson } from './json.js';
import { decodeParquet } from './parquet.js';

/** A binary table format decoded in the worker (CSV has its own hardened ingest). */
export type DecodedFormat = 'parquet' | 'arrow' | 'json' | 'ndjson';

/**
 * Decode a table file's bytes by format, in the calling thread (the decode worker's body).
 * @throws {DataError} the format's typed errors.
 * @example await decodeTable('t', bytes, 't.parquet', 'parquet', DEFAULT_DECODE_CAPS)
 */
export async function decodeTable(name: string, bytes: Uint8Array, file: string, format: DecodedFormat, caps: DecodeCaps): Promise<ColumnarTable> {
  if (bytes.byteLength > caps.maxInputBytes) {
    throw new DataError('DATA_TOO_LARGE', `${file}: ${bytes.byteLength} bytes, more than the ${caps.maxInputBytes}-byte limit for a table file`, { hint: 'Filter or aggregate the data first, or load fewer columns.' });
  }
  switch (format) {
    case 'parquet':
      return decodeParquet(name, bytes, file, caps);
    case 'arrow':
      return decodeArrow(name, bytes, file, caps);
    default:
      return decodeJson(name, bytes, file, caps, format);
  }
}
