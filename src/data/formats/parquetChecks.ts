import type { FileMetaData } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { DataError } from '../errors.js';
import { asSource, type ByteSource } from './byteSource.js';
import { capHint, type DecodeCaps } from './decodeCaps.js';
import type { ParquetLeaf } from './parquetSchema.js';

const CODECS = new Set(['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'ZSTD', 'LZ4', 'LZ4_RAW']);
const ENCODINGS = new Set([
  'PLAIN',
  'PLAIN_DICTIONARY',
  'RLE_DICTIONARY',
  'RLE',
  'BIT_PACKED',
  'DELTA_BINARY_PACKED',
  'DELTA_LENGTH_BYTE_ARRAY',
  'DELTA_BYTE_ARRAY',
  'BYTE_STREAM_SPLIT',
]);
const DAMAGED =
  'The file is damaged or truncated: copy or export it again (a complete Parquet file ends with the 4 bytes PAR1).';

/**
 * Checks every row group and every page header of a Parquet file BEFORE anything is decoded, so a
 * hostile file is refused instead of inflated: each row group must store exactly the schema's
 * columns with the schema's physical types (a schema that changes between row groups is refused),
 * each column chunk must lie inside the file, and each page must declare an uncompressed size and
 * a value count within the caps and within its row group. Returns the total rows. Over a file on
 * disk (a ByteSource) only the footer's tail and the page headers are read: `headerWindow` bytes at
 * each header first (1 KiB; tests pass less to make every header grow its window).
 * @throws {DataError} DATA_SCHEMA_MISMATCH, DATA_CORRUPT, DATA_UNSUPPORTED, DATA_TOO_LARGE.
 * @example const rows = checkParquet(asSource(bytes), meta, leaves, DEFAULT_DECODE_CAPS, 't.parquet');
 */
export function checkParquet(
  bytes: Uint8Array | ByteSource,
  meta: FileMetaData,
  leaves: ParquetLeaf[],
  caps: DecodeCaps,
  file: string,
  headerWindow = HEADER_WINDOW,
): number {
  const source = asSource(bytes);
  const tail = source.read(source.size - 8, 4);
  const dataEnd = source.size - 8 - ((tail[0] | (tail[1] << 8) | (tail[2] << 16) | (tail[3] << 24)) >>> 0);
  let rows = 0;
  let inflated = 0;
  meta.row_groups.forEach((rg, g) => {
    const groupRows = Number(rg.num_rows);
    if (!Number.isSafeInteger(groupRows) || groupRows < 0)
      throw corrupt(file, `row group ${g} declares ${String(rg.num_rows)} rows`);
    rows += groupRows;
    if (rows > caps.maxRows)
      throw new DataError('DATA_TOO_LARGE', `${file}: more than ${caps.maxRows} rows`, {
        hint: 'Filter or aggregate the data before loading it, or load fewer columns.',
      });
    if (rg.columns.length !== leaves.length) {
      throw new DataError(
        'DATA_SCHEMA_MISMATCH',
        `${file}: row group ${g} has ${rg.columns.length} columns, the schema has ${leaves.length}`,
        {
          hint: 'Every row group must follow the file schema; rewrite the file with one writer (e.g. DuckDB COPY ... TO ... (FORMAT parquet)).',
        },
      );
    }
    rg.columns.forEach((chunk, c) => {
      const leaf = leaves[c];
      const md = chunk.meta_data;
      if (!md) throw corrupt(file, `row group ${g} column ${c} has no metadata`);
      const path = (md.path_in_schema ?? []).join('.');
      if (path !== leaf.name || md.type !== leaf.element.type) {
        throw new DataError(
          'DATA_SCHEMA_MISMATCH',
          `${file}: row group ${g} stores '${path}' as ${String(md.type)} where the schema has '${leaf.name}' as ${String(leaf.element.type)}`,
          {
            hint: 'The schema changes between row groups; rewrite the file so every row group has the same columns and types.',
          },
        );
      }
      if (!CODECS.has(String(md.codec)))
        throw new DataError('DATA_UNSUPPORTED', `${file}: column '${leaf.name}' uses compression ${String(md.codec)}`, {
          hint: 'Write the file with SNAPPY, GZIP, ZSTD, BROTLI, LZ4 or no compression.',
        });
      // findIndex, not find: an unknown encoding id decodes to undefined, which find() would miss
      const encodings = md.encodings ?? [];
      const bad = encodings.findIndex((e) => !ENCODINGS.has(String(e)));
      if (bad >= 0)
        throw new DataError(
          'DATA_UNSUPPORTED',
          `${file}: column '${leaf.name}' uses encoding ${String(encodings[bad] ?? 'unknown')}`,
          {
            hint: 'Write the file with PLAIN, dictionary, RLE or DELTA encodings (the defaults of pyarrow, DuckDB and Polars).',
          },
        );
      inflated += scanPages(
        source,
        headerWindow,
        dataEnd,
        md,
        groupRows,
        caps,
        `${file}: row group ${g} column '${leaf.name}'`,
      );
      if (inflated > caps.maxDecodedBytes) {
        throw new DataError(
          'DATA_TOO_LARGE',
          `${file}: the pages would inflate to more than ${caps.maxDecodedBytes} bytes`,
          { hint: capHint('maxDecodedBytes', caps, 'Load fewer rows or columns, or split the file.') },
        );
      }
    });
  });
  if (rows !== Number(meta.num_rows))
    throw corrupt(file, `the row groups hold ${rows} rows but the footer says ${String(meta.num_rows)}`);
  return rows;
}

type ChunkMeta = NonNullable<FileMetaData['row_groups'][number]['columns'][number]['meta_data']>;

/** Bytes read for one page header at first; doubled (up to the chunk's end) while it does not parse. */
const HEADER_WINDOW = 1024;

/**
 * Walk one column chunk's page headers; returns the bytes its pages declare once inflated. Only
 * the headers are read (a window at each, grown while the header does not parse within it), never
 * the pages, so checking a file on disk reads kilobytes per column chunk.
 */
function scanPages(
  source: ByteSource,
  headerWindow: number,
  dataEnd: number,
  md: ChunkMeta,
  groupRows: number,
  caps: DecodeCaps,
  where: string,
): number {
  const dict =
    md.dictionary_page_offset !== undefined && Number(md.dictionary_page_offset) > 0
      ? Number(md.dictionary_page_offset)
      : undefined;
  const start = Math.min(dict ?? Infinity, Number(md.data_page_offset));
  const end = start + Number(md.total_compressed_size);
  if (!(start >= 4 && Number.isSafeInteger(end) && end <= dataEnd))
    throw corrupt(where, `its pages (bytes ${start}..${end}) lie outside the file's data (4..${dataEnd})`);
  let offset = start;
  let values = 0;
  let inflated = 0;
  while (values < groupRows) {
    if (offset >= end) throw corrupt(where, `its pages hold ${values} values, the row group has ${groupRows} rows`);
    const { header, length } = readHeader(source, headerWindow, offset, end, where);
    offset += length;
    const size = Number(header.uncompressed_page_size);
    const stored = Number(header.compressed_page_size);
    if (!(stored >= 0 && size >= 0 && offset + stored <= end))
      throw corrupt(where, 'a page runs past the end of its column chunk');
    if (size > caps.maxPageBytes) {
      throw new DataError(
        'DATA_TOO_LARGE',
        `${where}: a page would inflate from ${stored} to ${size} bytes (limit ${caps.maxPageBytes})`,
        {
          hint: 'This looks like a decompression bomb; if the file is genuine, write it with smaller pages (row groups of ~100,000 rows).',
        },
      );
    }
    inflated += size;
    const n = header.data_page_header?.num_values ?? header.data_page_header_v2?.num_values;
    if (header.type === 'DATA_PAGE' || header.type === 'DATA_PAGE_V2') {
      if (n === undefined || n < 0 || values + n > groupRows)
        throw corrupt(where, `a page declares ${String(n)} values, more than its row group's ${groupRows} rows`);
      const enc = header.data_page_header?.encoding ?? header.data_page_header_v2?.encoding;
      if (!ENCODINGS.has(String(enc)))
        throw new DataError('DATA_UNSUPPORTED', `${where}: a page uses encoding ${String(enc)}`, {
          hint: 'Write the file with PLAIN, dictionary, RLE or DELTA encodings.',
        });
      values += n;
    } else if (header.type === 'DICTIONARY_PAGE') {
      const d = header.dictionary_page_header?.num_values ?? -1;
      if (d < 0 || d > Math.max(size, 1) * 8)
        throw corrupt(where, `a dictionary page declares ${d} values in ${size} bytes`);
    } else if (header.type !== 'INDEX_PAGE') {
      throw corrupt(where, `a page has unknown type ${String(header.type)}`);
    }
    offset += stored;
  }
  return inflated;
}

/** The page header at `offset` (within a chunk ending at `end`) and its length in bytes. */
function readHeader(
  source: ByteSource,
  first: number,
  offset: number,
  end: number,
  where: string,
): { header: ReturnType<typeof parquetHeader>; length: number } {
  for (let window = Math.min(first, end - offset); ; window = Math.min(window * 2, end - offset)) {
    const bytes = source.read(offset, window);
    const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
    try {
      return { header: parquetHeader(reader), length: reader.offset };
    } catch (err) {
      // a header cut by the window is read again in a larger one (the thrift reader's errors do not
      // tell a cut header from a damaged one); cut by the chunk's end, it is damaged
      if (window >= end - offset) throw corrupt(where, `a page header cannot be read (${(err as Error).message})`);
    }
  }
}

function corrupt(where: string, what: string): DataError {
  return new DataError('DATA_CORRUPT', `${where}: ${what}`, { hint: DAMAGED });
}
