import { MAX_BYTES } from '../../columns/textDictionary.js';

/**
 * Copies `buf[s, e)` to `out` at `at`, four bytes at a time for short values (a native `set` per
 * value costs more below ~64 bytes); the views are of `buf` and `out`. Returns the end.
 * @example at = copyBytes(pageView, page, s, e, outView, out, at);
 */
export function copyBytes(
  view: DataView,
  buf: Uint8Array,
  s: number,
  e: number,
  outView: DataView,
  out: Uint8Array,
  at: number,
): number {
  if (e - s > 64) {
    out.set(buf.subarray(s, e), at);
    return at + e - s;
  }
  for (; s + 4 <= e; s += 4, at += 4) outView.setInt32(at, view.getInt32(s, true), true);
  while (s < e) out[at++] = buf[s++];
  return at;
}

/**
 * A resizable buffer of `size` bytes that may grow to 2 GiB (address space reserved, memory used as
 * it grows), or null where the runtime has none or the address space cannot be had.
 * @example const b = resizableBuffer(1 << 16) ?? new ArrayBuffer(1 << 16);
 */
export function resizableBuffer(size: number): (ArrayBuffer & { resize: (n: number) => void }) | null {
  const Resizable = ArrayBuffer as unknown as new (
    n: number,
    o: { maxByteLength: number },
  ) => ArrayBuffer & { resize?: (n: number) => void };
  try {
    const b = new Resizable(size, { maxByteLength: MAX_BYTES }) as ArrayBuffer & { resizable?: boolean };
    return b.resizable === true ? (b as ArrayBuffer & { resize: (n: number) => void }) : null;
  } catch {
    return null;
  }
}
