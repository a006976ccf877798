import { PageCorrupt } from './pageErrors.js';

/**
 * The BYTE_STREAM_SPLIT encoding undone: `n` values of `width` bytes, stored as `width` streams
 * (every value's first byte, then every second byte...), back to PLAIN order in a new buffer.
 * @throws {PageCorrupt} when the page holds fewer than n * width bytes.
 * @example plainNumbers(unsplit(page, pos, end, n, 8), 0, n * 8, n, plan, false)
 */
export function unsplit(buf: Uint8Array, pos: number, end: number, n: number, width: number): Uint8Array {
  if (pos + n * width > end || end > buf.length)
    throw new PageCorrupt(`${n} split values of ${width} bytes do not fit in the ${end - pos} bytes left in the page`);
  const out = new Uint8Array(n * width);
  for (let b = 0; b < width; b++) {
    const from = pos + b * n;
    for (let i = 0; i < n; i++) out[i * width + b] = buf[from + i];
  }
  return out;
}
