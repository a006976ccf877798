import { parquetRead, type FileMetaData } from 'hyparquet';
import type { ColumnData } from '../../../schema/columnar.js';
import { DataError } from '../errors.js';
import { cappedCompressors } from './cappedCompressors.js';
import type { DecodeCaps } from './decodeCaps.js';
import type { ParquetLeaf } from './parquetSchema.js';
import { typedColumn } from './typedColumn.js';

const DAMAGED =
  'The file is damaged or truncated: copy or export it again (a complete Parquet file starts and ends with PAR1).';

/**
 * The row-wise path: hyparquet's parquetRead decodes the given columns into JS values (one per
 * cell), which typedColumn copies into transfer columns. The columnar decoder
 * (parquetColumnar/) hands it the columns it does not implement (DECIMAL, INT96, INT64 beyond
 * 2^53, DELTA encodings...). Returns one column per entry of `pick` (indices into `leaves`).
 * Call it after checkParquet; decompression goes through the capped codecs.
 * @throws {DataError} DATA_CORRUPT, DATA_TOO_LARGE.
 * @example const [col] = await parquetRows(buffer, meta, leaves, [2], numRows, caps, 'a.parquet');
 */
export async function parquetRows(
  buffer: ArrayBuffer,
  meta: FileMetaData,
  leaves: ParquetLeaf[],
  pick: number[],
  numRows: number,
  caps: DecodeCaps,
  file: string,
): Promise<ColumnData[]> {
  if (pick.length === 0) return [];
  const columns = pick.map(() => new Array<unknown>(numRows));
  const filled = pick.map(() => 0);
  const index = new Map(pick.map((c, i) => [leaves[c].name, i]));
  try {
    await parquetRead({
      file: buffer,
      metadata: meta,
      columns: pick.map((c) => leaves[c].name),
      compressors: cappedCompressors(caps),
      // strings (UTF8/STRING/JSON too, via the parsers) stay UTF-8 bytes: typedColumn copies them
      // into the column without a decode/encode round trip
      utf8: false,
      parsers: {
        timestampFromMilliseconds: Number,
        timestampFromMicroseconds: (us: bigint) => Number(us / 1000n),
        timestampFromNanoseconds: (ns: bigint) => Number(ns / 1_000_000n),
        dateFromDays: (d: number) => d * 86_400_000,
        jsonFromBytes: (b: Uint8Array) => b,
        stringFromBytes: (b: Uint8Array) => b,
      },
      onChunk: ({ columnName, columnData, rowStart, rowEnd }) => {
        const c = index.get(columnName);
        if (c === undefined || rowStart < 0 || rowEnd > numRows || columnData.length !== rowEnd - rowStart) {
          throw new DataError(
            'DATA_CORRUPT',
            `${file}: column '${columnName}' decoded to ${columnData.length} values for rows ${rowStart}..${rowEnd}`,
            { hint: DAMAGED },
          );
        }
        const out = columns[c];
        for (let i = 0; i < columnData.length; i++) out[rowStart + i] = columnData[i];
        filled[c] += columnData.length;
      },
    });
  } catch (err) {
    if (err instanceof DataError) throw err;
    throw new DataError('DATA_CORRUPT', `${file}: the Parquet data cannot be decoded (${(err as Error).message})`, {
      hint: DAMAGED,
    });
  }
  const short = filled.findIndex((n) => n !== numRows);
  if (short >= 0)
    throw new DataError(
      'DATA_CORRUPT',
      `${file}: column '${leaves[pick[short]].name}' has ${filled[short]} values for ${numRows} rows`,
      { hint: DAMAGED },
    );
  // an INT64 column with values beyond 2^53 arrives as exact decimal strings (typedColumn)
  return pick.map((c, i) => {
    const { column } = typedColumn(columns[i], leaves[c].type);
    columns[i] = [];
    return column;
  });
}
