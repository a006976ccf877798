import { gunzipSync } from 'node:zlib';
import { decompressGzip } from 'hyparquet-compressors';

/**
 * A GZIP page inflated into `outputLength` bytes: by the runtime's zlib (native, ~3x faster than
 * the pure-JS inflate on Parquet pages), which stops at that many bytes (`maxOutputLength`); a
 * page zlib refuses is tried once more with hyparquet's more lenient JS inflate. A page that does
 * not inflate to exactly `outputLength` bytes comes back with another length or throws, and the
 * caller (cappedCompressors.ts) refuses it.
 * @example gzipDecompress(stored, header.uncompressed_page_size)
 */
export function gzipDecompress(input: Uint8Array, outputLength: number): Uint8Array {
  try {
    const out = gunzipSync(input, { maxOutputLength: Math.max(1, outputLength) });
    // a page owns its whole buffer, as every other codec's does: the page readers view
    // `page.buffer` (typed arrays at aligned offsets), and zlib may hand back a view into a larger one
    return out.byteOffset === 0 && out.buffer.byteLength === out.byteLength
      ? new Uint8Array(out.buffer)
      : new Uint8Array(out);
  } catch {
    return decompressGzip(input, outputLength);
  }
}
