import { decompressZstd } from 'hyparquet-compressors';
import { ZSTDDecoder } from 'zstddec';

/** Pages whose input or output is larger than this go to the pure-JS decoder (see zstdDecompress). */
const WASM_MAX_BYTES = 64 * 1024 * 1024;

let decoder: ZSTDDecoder | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the WebAssembly Zstandard decoder (zstddec: the reference C decoder, ~15x faster than
 * the pure-JS fzstd on Parquet pages). Call it before decoding a file with ZSTD pages; until it
 * has loaded, zstdDecompress uses fzstd. Safe to call many times.
 * @example await loadZstd(); zstdDecompress(page, 4096);
 */
export function loadZstd(): Promise<void> {
  loading ??= (async () => {
    const d = new ZSTDDecoder();
    await d.init();
    decoder = d;
  })().catch(() => undefined);
  return loading;
}

/**
 * A Zstandard frame inflated into exactly `outputLength` bytes. Through the WebAssembly decoder
 * once loaded, for pages of at most 64 MiB in and out (zstddec allocates both in its own memory
 * and does not report a failed allocation; this bound keeps it far from its limit); otherwise, and
 * for bigger pages, fzstd into a buffer of that size. A frame that does not inflate to exactly
 * `outputLength` bytes comes back with another length (zstddec returns nothing for a broken
 * frame): the caller (cappedCompressors.ts) refuses it.
 * @example zstdDecompress(stored, header.uncompressed_page_size)
 */
export function zstdDecompress(input: Uint8Array, outputLength: number): Uint8Array {
  if (decoder && input.byteLength <= WASM_MAX_BYTES && outputLength <= WASM_MAX_BYTES)
    return decoder.decode(input, outputLength);
  return decompressZstd(input, new Uint8Array(outputLength));
}
