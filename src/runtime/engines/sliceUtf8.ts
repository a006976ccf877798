import type { ColumnData, Utf8Column } from '../../../schema/columnar.js';

/**
 * Rows [start, end) of a utf8 column, offsets rebased to 0: what the prelude pages in through
 * `bridge.fetchColumnRange`, so a run that prints a few rows of a 300 MB text column copies
 * kilobytes into the isolate, not the whole column.
 */
export function sliceUtf8(data: ColumnData, start: number, end: number): Utf8Column {
  if (data.kind !== 'utf8') throw new Error('fetchColumnRange serves utf8 columns only');
  const n = data.valid.length;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > n || start > end) {
    throw new RangeError(`row range [${start}, ${end}) is outside 0..${n}`);
  }
  const base = data.offsets[start]!;
  const offsets = new Int32Array(end - start + 1);
  for (let i = 0; i <= end - start; i++) offsets[i] = data.offsets[start + i]! - base;
  return {
    kind: 'utf8',
    type: 'string',
    bytes: data.bytes.slice(base, data.offsets[end]),
    offsets,
    valid: data.valid.slice(start, end),
  };
}
