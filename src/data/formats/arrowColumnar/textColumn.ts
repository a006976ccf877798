import type { ColumnData, Utf8Column } from '../../../../schema/columnar.js';
import { dictEncode, dictLimit, USER_MAX_DICT_SIZE } from '../../columns/dictEncode.js';
import { hashBytes, viewOf } from '../../columns/hashBytes.js';
import { DistinctFloor } from '../parquetColumnar/distinctFloor.js';
import type { ArrowBatch } from './arrowBatch.js';
import { textBatch, type TextBatch } from './textBatch.js';
import { textRow } from './textRow.js';

/**
 * A string transfer column from checked batches (checkBatches.ts) of Utf8 or LargeUtf8: the
 * bytes are copied, not decoded (a batch at a time when TextBatch.clean, else row by row through
 * textRow.ts), then dictionary-coded by the same rule as every other string column (dictEncode.ts).
 * `beat` is called after each batch read and copied, and as dictEncode goes (arrowColumn.ts).
 * @throws {DataError} DATA_CORRUPT when a batch's offsets do not fit its bytes.
 * @throws {RangeError} when the text is larger than 2 GiB, as the per-value path.
 * @example textColumn(batches, 't.arrow', 'name')
 */
export function textColumn(
  batches: readonly ArrowBatch[],
  file: string,
  column: string,
  beat?: () => void,
): ColumnData {
  const read: TextBatch[] = [];
  const rows: Array<Array<Uint8Array | null> | null> = [];
  let total = 0;
  let nonNull = 0;
  let bytes = 0;
  for (let k = 0; k < batches.length; k++) {
    const tb = textBatch(batches[k], k, file, column);
    read.push(tb);
    total += tb.n;
    nonNull += tb.nonNull;
    if (tb.clean) {
      rows.push(null);
      bytes += tb.offsets[tb.n] - tb.offsets[0];
      continue;
    }
    const parts: Array<Uint8Array | null> = new Array(tb.n).fill(null);
    for (let i = 0; i < tb.n; i++) {
      if (!tb.valid[i]) continue;
      parts[i] = textRow(tb, i);
      bytes += parts[i]!.length;
    }
    rows.push(parts);
    beat?.();
  }
  if (bytes > 0x7fffffff) throw new RangeError('a text column is larger than 2 GiB');
  const out = new Uint8Array(bytes);
  const offsets = new Int32Array(total + 1);
  const valid = new Uint8Array(total);
  let at = 0;
  let pos = 0;
  for (let k = 0; k < read.length; k++) {
    const tb = read[k];
    valid.set(tb.valid, at);
    const parts = rows[k];
    if (!parts) {
      const o = tb.offsets;
      const base = pos - o[0];
      out.set(tb.values.subarray(o[0], o[tb.n]), pos);
      for (let i = 1; i <= tb.n; i++) offsets[at + i] = o[i] + base;
      pos += o[tb.n] - o[0];
    } else {
      for (let i = 0; i < tb.n; i++) {
        const p = parts[i];
        if (p) {
          out.set(p, pos);
          pos += p.length;
        }
        offsets[at + i + 1] = pos;
      }
    }
    at += tb.n;
    beat?.();
  }
  const col = { kind: 'utf8' as const, type: 'string' as const, bytes: out, offsets, valid };
  if (provenText(col, dictLimit(nonNull, USER_MAX_DICT_SIZE), beat)) return col;
  return dictEncode(col, nonNull, USER_MAX_DICT_SIZE, beat) ?? col;
}

/** Values the distinct floor reads before it leaves a column of mostly repeated values to dictEncode. */
const PROBE_VALUES = 1 << 16;

/**
 * True when the column is proven to have more than `limit` distinct values (a DistinctFloor over
 * the values' hashes passed it): dictEncode would then intern `limit` values, with a compact copy
 * of each (a long text column's size again, for an all-distinct `Abstract`), only to give up and
 * return null. False when it cannot prove it, and at once when fewer than half of the first
 * PROBE_VALUES values are distinct (a dictionary is likely: dictEncode decides, as before). The
 * column returned is the same either way; this only skips work that cannot change it.
 */
function provenText(col: Utf8Column, limit: number, beat?: () => void): boolean {
  const { bytes, offsets, valid } = col;
  const view = viewOf(bytes);
  const floor = new DistinctFloor(limit);
  let seen = 0;
  for (let r = 0; r < valid.length; r++) {
    if (valid[r] === 0) continue;
    floor.add(hashBytes(view, bytes, offsets[r], offsets[r + 1]));
    seen++;
    if (seen === PROBE_VALUES && floor.counted * 2 < seen) return false;
    if ((seen & 0xffff) === 0) {
      beat?.();
      if (floor.above) return true;
    }
  }
  return floor.above;
}
