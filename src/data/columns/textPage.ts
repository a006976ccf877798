import { isAscii } from 'node:buffer';
import type { ColumnData, TextPage } from '../../../schema/columnar.js';

/** Node's native slice decoders (what `toString(encoding, start, end)` calls after checking its arguments). */
interface NativeSlices {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

const proto = Buffer.prototype as unknown as Partial<NativeSlices>;
/** A character outside Latin-1: V8 stores its row two bytes per character. */
const NON_LATIN1 = /[^\u0000-\u00ff]/;

const FAST = typeof proto.latin1Slice === 'function' && typeof proto.utf8Slice === 'function';

/**
 * Rows [start, end) of a utf8 column decoded with Node's native decoders into one string per row
 * (schema/columnar.ts `TextPage`): what the isolate receives through `bridge.fetchTextPage`, so no
 * JavaScript UTF-8 decoder runs inside the guest. The rows of an all-ASCII page are copied as
 * Latin-1 (no decoding at all); other pages are decoded row by row, so invalid UTF-8 becomes U+FFFD
 * within its row exactly as the WHATWG decoder does, and a row that fits Latin-1 stays one byte per
 * character in V8 whatever its neighbours hold.
 *
 * One string per row rather than one page string cut with `slice`: V8's `toLowerCase` (the usual
 * case-insensitive idiom) runs about twice as fast on a sequential string as on a sliced one, and a
 * kept row then never pins its whole page (measured in docs/dataset.md).
 * @throws {RangeError} when the range is outside the column; {Error} for a column that is not utf8.
 * @example const page = textPage(loadColumn('Abstract'), 0, 4096); page.rows[0];
 */
export function textPage(data: ColumnData, start: number, end: number): TextPage {
  if (data.kind !== 'utf8') throw new Error('fetchTextPage serves utf8 columns only');
  const total = data.valid.length;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > total || start > end) {
    throw new RangeError(`row range [${start}, ${end}) is outside 0..${total}`);
  }
  const { bytes, offsets, valid } = data;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = isAscii(buf.subarray(offsets[start]!, offsets[end]!));
  const slice: (a: number, b: number) => string = FAST
    ? (ascii ? (buf as unknown as NativeSlices).latin1Slice : (buf as unknown as NativeSlices).utf8Slice).bind(buf)
    : (a, b) => buf.toString(ascii ? 'latin1' : 'utf8', a, b);
  const rows = new Array<string | null>(end - start);
  let charBytes = 0;
  for (let i = start; i < end; i++) {
    if (!valid[i]) {
      rows[i - start] = null;
      continue;
    }
    const s = slice(offsets[i]!, offsets[i + 1]!);
    rows[i - start] = s;
    charBytes += !ascii && NON_LATIN1.test(s) ? 2 * s.length : s.length;
  }
  return { kind: 'text', rows, charBytes };
}
