/**
 * The bytes of `parts` one after another, in a new array of their own (offset 0, so typed views
 * of any alignment can be laid over it); a single part is returned as it is.
 * @example concatBytes([new Uint8Array([1]), new Uint8Array([2, 3])]) // Uint8Array [1, 2, 3]
 */
export function concatBytes(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
