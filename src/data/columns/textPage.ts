import { isAscii } from 'node:buffer';
import type { ColumnData, TextPage } from '../../../schema/columnar.js';
import { utf8Rows } from './utf8Rows.js';

/** Node's native slice decoders (what `toString(encoding, start, end)` calls after checking its arguments). */
interface NativeSlices {
  utf8Slice(start: number, end: number): string;
}

const proto = Buffer.prototype as unknown as Partial<NativeSlices>;
/** A character outside Latin-1: V8 stores its row two bytes per character. */
const NON_LATIN1 = /[^\u0000-\u00ff]/;

const FAST = typeof proto.utf8Slice === 'function';

/**
 * Rows [start, end) of a utf8 column decoded with Node's native decoders into one string per row
 * (schema/columnar.ts `TextPage`): what the isolate receives through `bridge.fetchTextPage`, so no
 * JavaScript UTF-8 decoder runs inside the guest. An all-ASCII page is copied once as Latin-1 (no
 * decoding at all) and its rows are slices of that copy; other pages are decoded row by row, so invalid UTF-8 becomes U+FFFD
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
  const { offsets, valid, buf, base, stop } = utf8Rows(data, start, end, 'fetchTextPage');
  const rows = new Array<string | null>(end - start);
  if (isAscii(buf.subarray(base, stop))) {
    // one copy of the page, then O(1) slices: the isolate's copy of each row is made by the
    // structured clone that carries the page (a sequential string per row, not a slice)
    const page = buf.toString('latin1', base, stop);
    for (let i = start; i < end; i++)
      rows[i - start] = valid[i] ? page.slice(offsets[i]! - base, offsets[i + 1]! - base) : null;
    return { kind: 'text', rows, charBytes: stop - base };
  }
  const decode: (a: number, b: number) => string = FAST
    ? (buf as unknown as NativeSlices).utf8Slice.bind(buf)
    : (a, b) => buf.toString('utf8', a, b);
  let charBytes = 0;
  for (let i = start; i < end; i++) {
    if (!valid[i]) {
      rows[i - start] = null;
      continue;
    }
    const s = decode(offsets[i]!, offsets[i + 1]!);
    rows[i - start] = s;
    charBytes += NON_LATIN1.test(s) ? 2 * s.length : s.length;
  }
  return { kind: 'text', rows, charBytes };
}
