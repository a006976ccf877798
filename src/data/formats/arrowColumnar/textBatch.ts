import { isUtf8 } from 'node:buffer';
import type { ArrowBatch } from './arrowBatch.js';
import { corrupt } from './corrupt.js';
import { validBytes } from './validBytes.js';

/** One batch of Arrow text, checked: every row that holds a value lies inside `values`. */
export interface TextBatch {
  n: number;
  values: Uint8Array;
  /** n + 1 offsets into `values` (LargeUtf8 offsets narrowed; one that does not fit is -1). */
  offsets: Int32Array;
  /** 1 = the row holds a value. */
  valid: Uint8Array;
  nonNull: number;
  /**
   * Every row's bytes can be copied as they are, all at once: the offsets never go back, null
   * rows are empty, the bytes are well-formed UTF-8 cut only between characters, and no value
   * starts with a byte order mark. Otherwise rows go one by one through textRow.ts.
   */
  clean: boolean;
}

/**
 * Reads and checks one checked batch (checkBatches.ts) of Utf8 or LargeUtf8: offsets for every
 * row, each row that holds a value within the text bytes, and whether its bytes can be copied
 * without the decode + encode the per-value path does (TextBatch.clean).
 * @throws {DataError} DATA_CORRUPT when offsets are missing or a value points outside the text bytes.
 * @example const tb = textBatch(batch, k, 't.arrow', 'name');
 */
export function textBatch(batch: ArrowBatch, k: number, file: string, column: string): TextBatch {
  const n = batch.length;
  const values = batch.values;
  const valid = new Uint8Array(n);
  const nonNull = validBytes(batch, valid, 0);
  if (!(values instanceof Uint8Array)) throw corrupt(file, column, `record batch ${k + 1} has no text bytes`);
  const raw = batch.offsets;
  if (n === 0) return { n, values, offsets: new Int32Array(1), valid, nonNull, clean: true };
  if (!raw || raw.length < n + 1)
    throw corrupt(
      file,
      column,
      `record batch ${k + 1} has ${raw?.length ?? 0} text offsets for ${n} rows (${n + 1} needed)`,
    );
  const offsets = raw instanceof Int32Array ? raw : narrow(raw, n);
  const len = values.length;
  const end = offsets[n];
  let clean = offsets[0] >= 0 && end <= len;
  for (let i = 0; i < n; i++) {
    const s = offsets[i];
    const e = offsets[i + 1];
    if (valid[i]) {
      if (!(s >= 0 && s <= e && e <= len))
        throw corrupt(
          file,
          column,
          `row ${i + 1} of record batch ${k + 1} spans bytes ${s} to ${e} of a text buffer of ${len} bytes`,
        );
      // TextDecoder drops a leading byte order mark: such a value is not its bytes
      if (clean && e - s >= 3 && values[s] === 0xef && values[s + 1] === 0xbb && values[s + 2] === 0xbf) clean = false;
    } else if (s !== e) clean = false;
    // a value starting on a continuation byte splits a character: decoded alone, it is not its bytes
    if (clean && (e < s || (s < end && (values[s] & 0xc0) === 0x80))) clean = false;
  }
  if (clean && !isUtf8(values.subarray(offsets[0], end))) clean = false;
  return { n, values, offsets, valid, nonNull, clean };
}

/** LargeUtf8 offsets as int32 (read as two 32-bit words); one beyond 2^31 - 1 or negative becomes -1, out of range. */
function narrow(raw: BigInt64Array, n: number): Int32Array {
  const w = new Int32Array(raw.buffer, raw.byteOffset, 2 * (n + 1));
  const out = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) out[i] = w[2 * i + 1] === 0 && w[2 * i] >= 0 ? w[2 * i] : -1;
  return out;
}
