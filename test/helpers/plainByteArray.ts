const enc = new TextEncoder();

/**
 * The body of a Parquet PLAIN BYTE_ARRAY page holding `values` (the non-null ones): each value's
 * UTF-8 length as a little-endian uint32, then its bytes.
 * @example plainByteArray(['a', 'bc']) // bytes 1 0 0 0 97 2 0 0 0 98 99
 */
export function plainByteArray(values: string[]): Uint8Array {
  const parts = values.map((v) => enc.encode(v));
  const out = new Uint8Array(parts.reduce((n, p) => n + 4 + p.length, 0));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const p of parts) {
    view.setUint32(at, p.length, true);
    out.set(p, at + 4);
    at += 4 + p.length;
  }
  return out;
}
