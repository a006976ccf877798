import zlib from 'node:zlib';
import { crc32Table } from './crc32Table.js';

/** CRC-32 (IEEE, as zlib): native `zlib.crc32` on Node >= 20.15, a table-driven fallback before. */
export function crc32(data: Uint8Array): number {
  const native = (zlib as { crc32?: (d: Uint8Array) => number }).crc32;
  if (native) return native(data) >>> 0;
  return crc32Table(data);
}
