import { isUtf8 } from 'node:buffer';
import type { TextBatch } from './textBatch.js';

const decoder = new TextDecoder('utf-8');

/**
 * The UTF-8 bytes of row i (holding a value) of a text batch, exactly as the per-value path
 * stores them: flechette decodes with TextDecoder (a leading byte order mark dropped, malformed
 * bytes as U+FFFD), which is then encoded again. Well-formed bytes without a leading mark come
 * back as they are, so only those others are decoded.
 * @example const bytes = textRow(tb, i);
 */
export function textRow(tb: TextBatch, i: number): Uint8Array {
  const b = tb.values.subarray(tb.offsets[i], tb.offsets[i + 1]);
  if (tb.clean) return b;
  if (isUtf8(b) && !(b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf)) return b;
  return Buffer.from(decoder.decode(b), 'utf8');
}
