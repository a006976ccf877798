import { parquetMetadata, type FileMetaData } from 'hyparquet';
import type { ColumnarTable } from '../../../schema/columnar.js';
import { DataError } from '../errors.js';
import { asSource, type ByteSource } from './byteSource.js';
import { cappedCompressors } from './cappedCompressors.js';
import type { DecodeCaps } from './decodeCaps.js';
import { checkParquet } from './parquetChecks.js';
import { decodeColumnar } from './parquetColumnar/decodeColumnar.js';
import { partLeaves, type TablePart } from './parquetParts.js';
import { parquetRows } from './parquetRows.js';
import { checkColumnNames } from './checkColumnNames.js';
import { parquetLeaves, type ParquetLeaf } from './parquetSchema.js';
import { loadZstd } from './zstd.js';

const DAMAGED =
  'The file is damaged or truncated: copy or export it again (a complete Parquet file starts and ends with PAR1).';

/** How decodeParquet decodes; the row-wise path alone exists for differential tests and benchmarks. */
export interface ParquetDecodeOptions {
  /** Decode supported columns page by page into typed columns (parquetColumnar/). @default true */
  columnar?: boolean;
  /** Decode only this part's columns (parquetParts.ts); the file is still checked whole. */
  part?: TablePart;
}

/** A table, or with `part` the columns of one part: `leaves[i]` is the file's index of `columns[i]`. */
export type DecodedParquet = ColumnarTable & { leaves?: number[] };

/**
 * A Parquet file as a columnar table. Decodes in the calling thread: call it inside the decode
 * worker (decodeInWorker.ts), never on the host's main thread, because a reader can still be
 * driven into huge allocations by a file that passes every check.
 * Before decoding, the footer, the schema and every page header are checked (checkParquet), and
 * every decompression is capped by the page's declared size and by the file's total budget.
 * Flat columns of the common types are decoded page by page straight into typed columns
 * (parquetColumnar/); the rest go through hyparquet's row-wise reader (parquetRows.ts), with
 * the same values either way.
 * @throws {DataError} DATA_CORRUPT, DATA_UNSUPPORTED, DATA_SCHEMA_MISMATCH, DATA_TOO_LARGE.
 * @example const t = await decodeParquet('portfolio', bytes, 'portfolio.parquet', DEFAULT_DECODE_CAPS);
 */
export async function decodeParquet(
  name: string,
  bytes: Uint8Array,
  file: string,
  caps: DecodeCaps,
  options: ParquetDecodeOptions = {},
): Promise<DecodedParquet> {
  const { meta, leaves, numRows } = openParquet(asSource(bytes), file, caps);
  const buffer =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? (bytes.buffer as ArrayBuffer)
      : (bytes.slice().buffer as ArrayBuffer);
  // the WebAssembly Zstandard decoder loads once per worker (zstd.ts); until then fzstd would run
  if (meta.row_groups.some((rg) => rg.columns.some((chunk) => chunk.meta_data?.codec === 'ZSTD'))) await loadZstd();
  const mine = options.part ? partLeaves(meta, leaves.length, options.part) : leaves.map((_, c) => c);
  const codecs = cappedCompressors(caps);
  const columns =
    options.columnar === false
      ? mine.map(() => null)
      : decodeColumnar(bytes, meta, leaves, numRows, codecs, file, mine);
  const rest = mine.filter((_, i) => columns[i] === null);
  // a fresh codec budget: a column that fell back part-way re-inflates its pages, and
  // checkParquet already bounded what all the file's pages may declare
  const slow = await parquetRows(buffer, meta, leaves, rest, numRows, caps, file);
  let k = 0;
  mine.forEach((_, i) => (columns[i] ??= slow[k++]));
  return {
    name,
    numRows,
    columns: mine.map((c, i) => {
      const column = columns[i]!;
      return { name: leaves[c].name, type: column.type, kind: column.kind, data: column };
    }),
    ...(options.part ? { leaves: mine } : {}),
  };
}

/** A checked Parquet file: its footer, its flat columns and its row count. */
export interface OpenedParquet {
  meta: FileMetaData;
  leaves: ParquetLeaf[];
  numRows: number;
}

/**
 * Reads and checks a Parquet file before any page is decoded: both PAR1 marks, the footer (parsed
 * from a private copy of the file's tail, so the bytes may be shared memory), the schema, the
 * column count, and every row group and page header (checkParquet). Only the footer and the page
 * headers are read from `source` (a file on disk: fileSource). Call it in a decode worker.
 * `checkedRows`: another worker of this process already ran every check on this same open
 * descriptor and found this many rows (lazyParquet/): the footer is parsed and its own checks run
 * again, the page headers are not walked a second time; a footer whose row groups no longer add up
 * to `checkedRows` is refused.
 * @throws {DataError} DATA_CORRUPT, DATA_UNSUPPORTED, DATA_SCHEMA_MISMATCH, DATA_TOO_LARGE.
 * @example const { meta, leaves, numRows } = openParquet(asSource(bytes), 't.parquet', DEFAULT_DECODE_CAPS);
 */
export function openParquet(source: ByteSource, file: string, caps: DecodeCaps, checkedRows?: number): OpenedParquet {
  const size = source.size;
  const head = size >= 12 ? source.read(0, 4) : new Uint8Array(0);
  const end = size >= 12 ? source.read(size - 8, 8) : new Uint8Array(0);
  if (size < 12 || !isPar1(head, 0) || !isPar1(end, 4)) {
    throw new DataError(
      'DATA_CORRUPT',
      `${file}: not a complete Parquet file (${size} bytes; it must start and end with PAR1)`,
      { hint: DAMAGED },
    );
  }
  const footer = (end[0] | (end[1] << 8) | (end[2] << 16) | (end[3] << 24)) >>> 0;
  const from = Math.max(0, size - 8 - footer);
  const tail = source.read(from, size - from).slice();
  let meta: FileMetaData;
  try {
    meta = parquetMetadata(tail, { geoparquet: false });
  } catch (err) {
    throw new DataError('DATA_CORRUPT', `${file}: the Parquet footer cannot be read (${(err as Error).message})`, {
      hint: DAMAGED,
    });
  }
  const leaves = parquetLeaves(meta, file);
  // before any page is read: the column count bounds the work per column
  if (leaves.length > caps.maxColumns)
    checkColumnNames(
      leaves.map((_, i) => String(i)),
      file,
      caps,
    );
  if (checkedRows === undefined) return { meta, leaves, numRows: checkParquet(source, meta, leaves, caps, file) };
  const rows = meta.row_groups.reduce((n, rg) => n + Number(rg.num_rows), 0);
  if (rows !== checkedRows)
    throw new DataError(
      'DATA_CORRUPT',
      `${file}: the file changed while it was open (${rows} rows, ${checkedRows} before)`,
      {
        hint: 'Load the table again once the file is no longer being written.',
      },
    );
  return { meta, leaves, numRows: checkedRows };
}

function isPar1(b: Uint8Array, at: number): boolean {
  return b[at] === 0x50 && b[at + 1] === 0x41 && b[at + 2] === 0x52 && b[at + 3] === 0x31;
}
