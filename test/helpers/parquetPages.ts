/**
 * The pages of one column chunk of a real Parquet file, located for attack tests: write the file
 * UNCOMPRESSED, find a page's body, overwrite bytes inside it (same length, so every offset and
 * size in the file stays right) and only the lie remains.
 */
import { parquetHeader } from 'hyparquet/src/column.js';
import { readFooter } from './parquetSurgery.js';

/** One page: its type, where its body lies, and (v2) its level sections' lengths. */
export interface PageSpot {
  type: string;
  /** First byte of the body (after the header). */
  body: number;
  end: number;
  numValues: number;
  repLen: number;
  defLen: number;
}

/** Every page of column `column` in row group `group`. */
export function pagesOf(file: Uint8Array, column = 0, group = 0): PageSpot[] {
  const md = readFooter(file).field_4[group].field_1[column].field_3;
  const start = Math.min(Number(md.field_11 ?? Infinity), Number(md.field_9));
  const end = start + Number(md.field_7);
  const reader = { view: new DataView(file.buffer, file.byteOffset, file.byteLength), offset: start };
  const out: PageSpot[] = [];
  while (reader.offset < end) {
    const h = parquetHeader(reader);
    const body = reader.offset;
    reader.offset += h.compressed_page_size;
    const v2 = h.data_page_header_v2;
    out.push({
      type: h.type,
      body,
      end: reader.offset,
      numValues: v2?.num_values ?? h.data_page_header?.num_values ?? h.dictionary_page_header?.num_values ?? 0,
      repLen: v2?.repetition_levels_byte_length ?? 0,
      defLen: v2?.definition_levels_byte_length ?? 0,
    });
  }
  return out;
}
