import type { Compressors, FileMetaData } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { DataError } from '../../errors.js';
import { asSource, type ByteSource } from '../byteSource.js';
import type { ColumnSink } from './columnSink.js';
import { readHybrid } from './hybrid.js';
import type { LeafPlan } from './leafPlan.js';
import { NeedsFallback, PageCorrupt } from './pageErrors.js';

type ChunkMeta = NonNullable<FileMetaData['row_groups'][number]['columns'][number]['meta_data']>;

const DAMAGED =
  'The file is damaged or truncated: copy or export it again (a complete Parquet file ends with the 4 bytes PAR1).';

/**
 * Feed one column chunk (one column of one row group) page by page into `sink`: each page header
 * is read and bounded by the chunk, each page inflated through the capped `codecs`, its
 * definition levels decoded (flat columns: 0 = null, 1 = a value), and its values handed over.
 * The chunk must yield exactly `groupRows` rows. Only the chunk's bytes are read from `file` (a
 * file on disk: one read of the chunk). Runs in the decode worker after checkParquet.
 * @throws {DataError} DATA_CORRUPT naming the column and row group; DATA_TOO_LARGE from the codecs.
 * @throws {NeedsFallback} for a feature the columnar decoder leaves to the hyparquet path.
 * @example readColumnChunk(bytes, md, 1000, plan, new NumberSink(plan, 'number', 1000), codecs, "t.parquet: row group 0 column 'x'");
 */
export function readColumnChunk(
  file: Uint8Array | ByteSource,
  md: ChunkMeta,
  groupRows: number,
  plan: LeafPlan,
  sink: ColumnSink,
  codecs: Compressors,
  where: string,
): void {
  const dictAt =
    md.dictionary_page_offset !== undefined && Number(md.dictionary_page_offset) > 0
      ? Number(md.dictionary_page_offset)
      : Infinity;
  const start = Math.min(dictAt, Number(md.data_page_offset));
  const stop = start + Number(md.total_compressed_size);
  const source = asSource(file);
  if (!(start >= 4 && Number.isSafeInteger(stop) && stop >= start && stop <= source.size))
    throw corrupt(where, `its pages (bytes ${start}..${stop}) lie outside the file`);
  const codec = String(md.codec);
  // the chunk alone; offsets below are within it
  const bytes = source.read(start, stop - start);
  const end = bytes.byteLength;
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
  let rows = 0;
  try {
    while (rows < groupRows) {
      if (reader.offset >= end)
        throw new PageCorrupt(`its pages hold ${rows} values, the row group has ${groupRows} rows`);
      const header = parquetHeader(reader);
      const size = Number(header.uncompressed_page_size);
      const stored = Number(header.compressed_page_size);
      const at = reader.offset;
      if (!(stored >= 0 && size >= 0 && at + stored <= end))
        throw new PageCorrupt('a page runs past the end of its column chunk');
      reader.offset += stored;
      const raw = bytes.subarray(at, at + stored);
      if (header.type === 'DICTIONARY_PAGE') {
        const d = header.dictionary_page_header;
        if (!d || !(d.num_values >= 0)) throw new PageCorrupt('a dictionary page without its header');
        const page = inflate(raw, size, codec, codecs);
        sink.dictionary(page, 0, page.length, d.num_values);
      } else if (header.type === 'DATA_PAGE') {
        const h = header.data_page_header;
        const n = h?.num_values;
        if (!h || !(n !== undefined && n >= 0 && rows + n <= groupRows))
          throw new PageCorrupt(
            `a page declares ${String(n)} values, more than its row group's ${groupRows - rows} remaining rows`,
          );
        const page = inflate(raw, size, codec, codecs);
        let pos = 0;
        let defs: Int32Array | null = null;
        let nonNull = n;
        if (plan.optional) {
          if (h.definition_level_encoding !== 'RLE')
            throw new NeedsFallback(`definition levels encoded ${String(h.definition_level_encoding)}`);
          if (page.length < 4) throw new PageCorrupt('a page without its definition levels');
          const len = (page[0] | (page[1] << 8) | (page[2] << 16) | (page[3] << 24)) >>> 0;
          if (len > page.length - 4)
            throw new PageCorrupt(`definition levels of ${len} bytes in a page of ${page.length}`);
          ({ defs, nonNull } = levels(page, 4, 4 + len, n));
          pos = 4 + len;
        }
        sink.page({ buf: page, pos, end: page.length, encoding: String(h.encoding), rows: n, defs, nonNull });
        rows += n;
      } else if (header.type === 'DATA_PAGE_V2') {
        const h = header.data_page_header_v2;
        const n = h?.num_values;
        if (!h || !(n !== undefined && n >= 0 && rows + n <= groupRows))
          throw new PageCorrupt(
            `a page declares ${String(n)} values, more than its row group's ${groupRows - rows} remaining rows`,
          );
        const repLen = h.repetition_levels_byte_length;
        const defLen = h.definition_levels_byte_length;
        if (!(repLen >= 0 && defLen >= 0 && repLen + defLen <= stored && repLen + defLen <= size))
          throw new PageCorrupt(`levels of ${repLen} + ${defLen} bytes in a page of ${stored}`);
        let defs: Int32Array | null = null;
        let nonNull = n;
        if (plan.optional) ({ defs, nonNull } = levels(raw, repLen, repLen + defLen, n));
        const body = raw.subarray(repLen + defLen);
        const page = h.is_compressed === false ? body : inflate(body, size - repLen - defLen, codec, codecs);
        sink.page({ buf: page, pos: 0, end: page.length, encoding: String(h.encoding), rows: n, defs, nonNull });
        rows += n;
      }
      // INDEX_PAGE and unknown page types (refused by checkParquet) carry no rows
    }
  } catch (err) {
    if (err instanceof NeedsFallback || err instanceof DataError) throw err;
    throw corrupt(
      where,
      err instanceof PageCorrupt ? err.message : `a page cannot be decoded (${(err as Error).message})`,
    );
  }
}

/** Definition levels of a flat OPTIONAL column (bit width 1); null when every row has a value. */
function levels(buf: Uint8Array, pos: number, end: number, n: number): { defs: Int32Array | null; nonNull: number } {
  if (oneRunOfValues(buf, pos, end, n)) return { defs: null, nonNull: n };
  const defs = new Int32Array(n);
  if (n > 0) readHybrid(buf, pos, end, 1, defs, n);
  let nonNull = 0;
  for (let i = 0; i < n; i++) {
    const d = defs[i];
    if (d > 1 || d < 0) throw new PageCorrupt(`definition level ${d} in a flat column (0 or 1)`);
    nonNull += d;
  }
  return { defs: nonNull === n ? null : defs, nonNull };
}

/**
 * True when the levels are one RLE run of level 1 covering at least `n` rows (how writers encode a
 * page without nulls): then no row is null and nothing needs decoding. Anything else, including
 * a malformed run, is left to readHybrid, which checks it.
 */
function oneRunOfValues(buf: Uint8Array, pos: number, end: number, n: number): boolean {
  let header = 0;
  for (let shift = 0; shift <= 28; shift += 7) {
    if (pos >= end) return false;
    const b = buf[pos++];
    header += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return header % 2 === 0 && header / 2 >= n && n > 0 && pos < end && buf[pos] === 1;
  }
  return false;
}

function inflate(raw: Uint8Array, size: number, codec: string, codecs: Compressors): Uint8Array {
  if (codec === 'UNCOMPRESSED') {
    if (raw.length !== size)
      throw new PageCorrupt(`an uncompressed page of ${raw.length} bytes, its header says ${size}`);
    return raw;
  }
  const fn = codecs[codec as keyof Compressors];
  if (!fn) throw new NeedsFallback(`compression ${codec}`);
  return fn(raw, size);
}

function corrupt(where: string, what: string): DataError {
  return new DataError('DATA_CORRUPT', `${where}: ${what}`, { hint: DAMAGED });
}
