import type { Compressors } from 'hyparquet';
import { compressors, decompressBrotli, decompressLz4, decompressLz4Raw } from 'hyparquet-compressors';
import { DataError } from '../errors.js';
import { capHint, type DecodeCaps } from './decodeCaps.js';
import { gzipDecompress } from './gzip.js';
import { zstdDecompress } from './zstd.js';

/**
 * The decompressors of hyparquet-compressors, each bounded: it must produce exactly the page's
 * declared size (already checked against the caps), and all of them together at most the file's
 * budget. ZSTD decodes into a buffer of the declared size, so a frame that claims more fails.
 * One instance per file: the columnar page decoder and the hyparquet fallback share its budget.
 * @throws {DataError} DATA_TOO_LARGE (from the returned functions) when a page is over the caps.
 * @example const codecs = cappedCompressors(DEFAULT_DECODE_CAPS); codecs.SNAPPY!(stored, 4096);
 */
export function cappedCompressors(caps: DecodeCaps): Compressors {
  let budget = caps.maxDecodedBytes;
  const wrap =
    (codec: string, fn: (input: Uint8Array, outputLength: number) => Uint8Array) =>
    (input: Uint8Array, outputLength: number): Uint8Array => {
      if (!(outputLength >= 0 && outputLength <= caps.maxPageBytes && outputLength <= budget)) {
        const overBudget = outputLength >= 0 && outputLength <= caps.maxPageBytes;
        throw new DataError(
          'DATA_TOO_LARGE',
          `a ${codec} page would inflate to ${outputLength} bytes, over the ${overBudget ? `${caps.maxDecodedBytes}-byte inflate cap of the file` : `${caps.maxPageBytes}-byte page cap`}`,
          {
            hint: overBudget
              ? capHint('maxDecodedBytes', caps, 'Load fewer rows or columns, or split the file.')
              : 'This looks like a decompression bomb; if the file is genuine, write it with smaller pages (row groups of ~100,000 rows).',
          },
        );
      }
      budget -= outputLength;
      const out = fn(input, outputLength);
      if (out.length !== outputLength)
        throw new Error(`a ${codec} page inflated to ${out.length} bytes, its header says ${outputLength}`);
      return out;
    };
  return {
    // the shared SNAPPY instance: decompressSnappy would instantiate its WASM module per page
    SNAPPY: wrap('SNAPPY', compressors.SNAPPY!),
    GZIP: wrap('GZIP', gzipDecompress),
    BROTLI: wrap('BROTLI', decompressBrotli),
    // WebAssembly once loadZstd() has run (decodeParquet does, for a file with ZSTD pages)
    ZSTD: wrap('ZSTD', zstdDecompress),
    LZ4: wrap('LZ4', decompressLz4),
    LZ4_RAW: wrap('LZ4_RAW', decompressLz4Raw),
  };
}
