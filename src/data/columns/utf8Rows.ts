import type { ColumnData } from '../../../schema/columnar.js';

/** Rows [start, end) of a utf8 column, checked, as the byte views textPage and textScan read. */
export interface Utf8Rows {
  bytes: Uint8Array;
  offsets: Int32Array;
  valid: Uint8Array;
  /** The whole byte buffer as a Node Buffer (no copy). */
  buf: Buffer;
  /** Byte offsets of the first row's start and the last row's end. */
  base: number;
  stop: number;
}

/**
 * The byte views of rows [start, end) of a utf8 column.
 * @throws {Error} for a column that is not utf8 (`who` names the caller); {RangeError} when the
 *   range is outside the column.
 * @example const { buf, base, stop } = utf8Rows(col, 0, 4096, 'textScan');
 */
export function utf8Rows(data: ColumnData, start: number, end: number, who: string): Utf8Rows {
  if (data.kind !== 'utf8') throw new Error(`${who} serves utf8 columns only`);
  const total = data.valid.length;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > total || start > end) {
    throw new RangeError(`row range [${start}, ${end}) is outside 0..${total}`);
  }
  const { bytes, offsets, valid } = data;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { bytes, offsets, valid, buf, base: offsets[start]!, stop: offsets[end]! };
}
