import { parquetMetadata, parquetRead, type Compressors, type FileMetaData } from 'hyparquet';
import { compressors, decompressBrotli, decompressGzip, decompressLz4, decompressLz4Raw, decompressZstd } from 'hyparquet-compressors';
import type { ColumnarTable } from '../../../schema/columnar.js';
import { DataError } from '../errors.js';
import type { DecodeCaps } from './decodeCaps.js';
import { checkParquet } from './parquetChecks.js';
import { parquetLeaves } from './parquetSchema.js';
import { typedColumn } from './typedColumn.js';

const DAMAGED = 'The file is damaged or truncated: copy or export it again (a complete Parquet file starts and ends with PAR1).';

/**
 * A Parquet file as a columnar table. Decodes in the calling thread: call it inside the decode
 * worker (decodeInWorker.ts), never on the host's main thread, because a reader can still be
 * driven into huge allocations by a file that passes every check.
 * Before decoding, the footer, the schema and every page header are checked (checkParquet), and
 * every decompression is capped by the page's declared size and by the file's total budget.
 * @throws {DataError} DATA_CORRUPT, DATA_UNSUPPORTED, DATA_SCHEMA_MISMATCH, DATA_TOO_LARGE.
 * @example const t = await decodeParquet('portfolio', bytes, 'portfolio.parquet', DEFAULT_DECODE_CAPS);
 */
export async function decodeParquet(name: string, bytes: Uint8Array, file: string, caps: DecodeCaps): Promise<ColumnarTable> {
  if (bytes.byteLength < 12 || !isPar1(bytes, 0) || !isPar1(bytes, bytes.byteLength - 4)) {
    throw new DataError('DATA_CORRUPT', `${file}: not a complete Parquet file (${bytes.byteLength} bytes; it must start and end with PAR1)`, { hint: DAMAGED });
  }
  const buffer = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : (bytes.slice().buffer as ArrayBuffer);
  let meta: FileMetaData;
  try {
    meta = parquetMetadata(buffer, { geoparquet: false });
  } catch (err) {
    throw new DataError('DATA_CORRUPT', `${file}: the Parquet footer cannot be read (${(err as Error).message})`, { hint: DAMAGED });
  }
  const leaves = parquetLeaves(meta, file);
  const numRows = checkParquet(bytes, meta, leaves, caps, file);
  const columns = leaves.map(() => new Array<unknown>(numRows));
  const filled = leaves.map(() => 0);
  const index = new Map(leaves.map((l, i) => [l.name, i]));
  try {
    await parquetRead({
      file: buffer,
      metadata: meta,
      compressors: cappedCompressors(caps),
      // strings (UTF8/STRING/JSON too, via the parsers) stay UTF-8 bytes: typedColumn copies them
      // into the column without a decode/encode round trip
      utf8: false,
      parsers: { timestampFromMilliseconds: Number, timestampFromMicroseconds: (us: bigint) => Number(us / 1000n), timestampFromNanoseconds: (ns: bigint) => Number(ns / 1_000_000n), dateFromDays: (d: number) => d * 86_400_000, jsonFromBytes: (b: Uint8Array) => b, stringFromBytes: (b: Uint8Array) => b },
      onChunk: ({ columnName, columnData, rowStart, rowEnd }) => {
        const c = index.get(columnName);
        if (c === undefined || rowStart < 0 || rowEnd > numRows || columnData.length !== rowEnd - rowStart) {
          throw new DataError('DATA_CORRUPT', `${file}: column '${columnName}' decoded to ${columnData.length} values for rows ${rowStart}..${rowEnd}`, { hint: DAMAGED });
        }
        const out = columns[c];
        for (let i = 0; i < columnData.length; i++) out[rowStart + i] = columnData[i];
        filled[c] += columnData.length;
      },
    });
  } catch (err) {
    if (err instanceof DataError) throw err;
    throw new DataError('DATA_CORRUPT', `${file}: the Parquet data cannot be decoded (${(err as Error).message})`, { hint: DAMAGED });
  }
  const short = filled.findIndex((n) => n !== numRows);
  if (short >= 0) throw new DataError('DATA_CORRUPT', `${file}: column '${leaves[short].name}' has ${filled[short]} values for ${numRows} rows`, { hint: DAMAGED });
  // an INT64 column with values beyond 2^53 arrives as exact decimal strings (typedColumn)
  return {
    name,
    numRows,
    columns: leaves.map((leaf, i) => {
      const { column } = typedColumn(columns[i], leaf.type);
      columns[i] = [];
      return { name: leaf.name, type: column.type, kind: column.kind, data: column };
    }),
  };
}

function isPar1(b: Uint8Array, at: number): boolean {
  return b[at] === 0x50 && b[at + 1] === 0x41 && b[at + 2] === 0x52 && b[at + 3] === 0x31;
}

/**
 * The decompressors of hyparquet-compressors, each bounded: it must produce exactly the page's
 * declared size (already checked against the caps), and all of them together at most the file's
 * budget. ZSTD decodes into a buffer of the declared size, so a frame that claims more fails.
 */
function cappedCompressors(caps: DecodeCaps): Compressors {
  let budget = caps.maxDecodedBytes;
  const wrap = (codec: string, fn: (input: Uint8Array, outputLength: number) => Uint8Array) => (input: Uint8Array, outputLength: number): Uint8Array => {
    if (!(outputLength >= 0 && outputLength <= caps.maxPageBytes && outputLength <= budget)) {
      throw new DataError('DATA_TOO_LARGE', `a ${codec} page would inflate to ${outputLength} bytes, over the decode budget`, { hint: 'This looks like a decompression bomb; if the file is genuine, split it.' });
    }
    budget -= outputLength;
    const out = fn(input, outputLength);
    if (out.length !== outputLength) throw new Error(`a ${codec} page inflated to ${out.length} bytes, its header says ${outputLength}`);
    return out;
  };
  return {
    // the shared SNAPPY instance: decompressSnappy would instantiate its WASM module per page
    SNAPPY: wrap('SNAPPY', compressors.SNAPPY!),
    GZIP: wrap('GZIP', decompressGzip),
    BROTLI: wrap('BROTLI', decompressBrotli),
    ZSTD: wrap('ZSTD', (input, n) => decompressZstd(input, new Uint8Array(n))),
    LZ4: wrap('LZ4', decompressLz4),
    LZ4_RAW: wrap('LZ4_RAW', decompressLz4Raw),
  };
}
