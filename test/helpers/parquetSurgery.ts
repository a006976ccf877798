/**
 * Rewrites of real Parquet files for attack tests: the footer (thrift FileMetaData) decoded with
 * hyparquet's reader, changed, and encoded again with hyparquet-writer's, so a test can build a
 * file whose row groups disagree with the schema, or whose page header lies about its size.
 */
import { deserializeTCompactProtocol } from 'hyparquet/src/thrift.js';
import { parquetHeader } from 'hyparquet/src/column.js';
import { ByteWriter } from 'hyparquet-writer';
import { serializeTCompactProtocol } from 'hyparquet-writer/src/thrift.js';

/** The raw thrift footer object (field_1 version, field_2 schema, field_3 num_rows, field_4 row groups...). */
export type RawFooter = Record<string, any>;

/** Decode the footer of a Parquet file into its raw thrift object. */
export function readFooter(file: Uint8Array): RawFooter {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const len = view.getUint32(file.byteLength - 8, true);
  return deserializeTCompactProtocol({ view, offset: file.byteLength - 8 - len }) as RawFooter;
}

/** The file with its footer replaced by `edit(footer)`'s encoding. */
export function withFooter(file: Uint8Array, edit: (footer: RawFooter) => void): Uint8Array {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const len = view.getUint32(file.byteLength - 8, true);
  const footer = readFooter(file);
  edit(footer);
  const w = new ByteWriter();
  serializeTCompactProtocol(w, footer);
  const meta = new Uint8Array(w.getBuffer());
  const body = file.subarray(0, file.byteLength - 8 - len);
  const out = new Uint8Array(body.byteLength + meta.byteLength + 8);
  out.set(body, 0);
  out.set(meta, body.byteLength);
  new DataView(out.buffer).setUint32(body.byteLength + meta.byteLength, meta.byteLength, true);
  out.set([0x50, 0x41, 0x52, 0x31], out.byteLength - 4);
  return out;
}

/** The first page header of the first column chunk: its offset, and its declared uncompressed size. */
export function firstPage(file: Uint8Array): {
  offset: number;
  uncompressed: number;
  compressed: number;
  headerEnd: number;
} {
  const footer = readFooter(file);
  const md = footer.field_4[0].field_1[0].field_3;
  const offset = Number(md.field_11 ?? md.field_9); // dictionary page offset, else data page offset
  const reader = { view: new DataView(file.buffer, file.byteOffset, file.byteLength), offset };
  const h = parquetHeader(reader);
  return {
    offset,
    uncompressed: h.uncompressed_page_size,
    compressed: h.compressed_page_size,
    headerEnd: reader.offset,
  };
}

/**
 * Replace the first page header's uncompressed size by `size` in place. The zigzag varint of the
 * new size must have the same byte length as the old one (the test picks sizes that do), so every
 * offset in the file stays right and only the lie remains.
 */
export function patchUncompressedSize(file: Uint8Array, size: number): Uint8Array {
  const { offset, uncompressed, headerEnd } = firstPage(file);
  const old = varint(uncompressed * 2);
  const next = varint(size * 2);
  if (old.length !== next.length) throw new Error(`varint lengths differ (${old.length} vs ${next.length})`);
  const out = file.slice();
  for (let i = offset; i + old.length <= headerEnd; i++) {
    if (old.every((b, k) => out[i + k] === b)) {
      out.set(next, i);
      return out;
    }
  }
  throw new Error('uncompressed size not found in the page header');
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}
