/**
 * True when `buf[s, e)` is empty or only spaces, tabs, CR and LF: such cells are null in every
 * column (the SBIR file uses `"  "` as a placeholder). Other cells are never trimmed.
 */
export function isBlank(buf: Uint8Array, s: number, e: number): boolean {
  for (let i = s; i < e; i++) {
    const c = buf[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return false;
  }
  return true;
}
