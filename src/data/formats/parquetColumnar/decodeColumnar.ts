import type { Compressors, FileMetaData } from 'hyparquet';
import type { ColumnData } from '../../../../schema/columnar.js';
import { USER_MAX_DICT_SIZE } from '../../columns/dictEncode.js';
import { DataError } from '../../errors.js';
import type { ByteSource } from '../byteSource.js';
import type { ParquetLeaf } from '../parquetSchema.js';
import { BoolSink } from './boolSink.js';
import type { ColumnSink } from './columnSink.js';
import { leafPlan, type LeafPlan } from './leafPlan.js';
import { NumberSink } from './numberSink.js';
import { NeedsFallback, PageCorrupt } from './pageErrors.js';
import { readColumnChunk } from './readColumnChunk.js';
import { StringSink } from './stringSink.js';

/**
 * The columnar Parquet decoder: every flat column it supports, decoded page by page straight
 * into its transfer form (schema/columnar.ts), with no JS value per cell. Returns one entry per
 * leaf of `which` (every leaf by default): the column, or null for a column left to the hyparquet
 * path (see leafPlan and NeedsFallback), which then gives the same values the slow way. Call it
 * after checkParquet, in the decode worker.
 * @throws {DataError} DATA_CORRUPT (a page contradicts itself), DATA_TOO_LARGE (the codecs' caps).
 * @example const cols = decodeColumnar(bytes, meta, leaves, numRows, cappedCompressors(caps), 'a.parquet');
 */
export function decodeColumnar(
  bytes: Uint8Array,
  meta: FileMetaData,
  leaves: ParquetLeaf[],
  numRows: number,
  codecs: Compressors,
  file: string,
  which: number[] = leaves.map((_, c) => c),
): Array<ColumnData | null> {
  return which.map((c) => decodeLeaf(bytes, meta, leaves[c], c, [0, meta.row_groups.length], numRows, codecs, file));
}

/**
 * One leaf (`c`, of `leaf`) of row groups [groups[0], groups[1]), which hold `rows` rows, in
 * transfer form (read from `bytes`: the file in memory, or a ByteSource that reads only the
 * leaf's column chunks); null when the columnar decoder leaves it to the hyparquet path. `onGroup` is
 * called after each row group and each page a text column is built from (the lazy decode's
 * heartbeat, lazyParquet/columnWorker.ts). `ruleRows`, for a part of a column: the whole column's
 * rows (a part then stays a dictionary up to half of those; joinColumns applies the exact rule).
 * `capacity`, for the first part of a column: the whole column's rows, which its number values,
 * validity and dictionary codes are allocated for (joinColumns writes the later parts after them).
 * String columns become dictionary codes up to USER_MAX_DICT_SIZE distinct values.
 * @throws {DataError} as decodeColumnar.
 * @example decodeLeaf(bytes, meta, leaves[2], 2, [0, 4], rows, codecs, 'a.parquet')
 */
export function decodeLeaf(
  bytes: Uint8Array | ByteSource,
  meta: FileMetaData,
  leaf: ParquetLeaf,
  c: number,
  groups: readonly [number, number],
  rows: number,
  codecs: Compressors,
  file: string,
  onGroup?: () => void,
  ruleRows?: number,
  capacity?: number,
): ColumnData | null {
  const plan = leafPlan(leaf);
  if (!plan) return null;
  // what the leaf's pages inflate to (all of its row groups for a first part, which holds the whole column's room)
  const [from, to] = capacity === undefined ? groups : [0, meta.row_groups.length];
  let bound = 0;
  for (let g = from; g < to; g++)
    bound += Number(meta.row_groups[g].columns[c].meta_data?.total_uncompressed_size ?? NaN);
  const sink = sinkFor(plan, leaf, rows, onGroup, ruleRows, capacity, Number.isSafeInteger(bound) ? bound : undefined);
  try {
    for (let g = groups[0]; g < groups[1]; g++) {
      const rg = meta.row_groups[g];
      readColumnChunk(
        bytes,
        rg.columns[c].meta_data!,
        Number(rg.num_rows),
        plan,
        sink,
        codecs,
        `${file}: row group ${g} column '${leaf.name}'`,
      );
      onGroup?.();
    }
    return sink.finish();
  } catch (err) {
    if (err instanceof NeedsFallback) return null;
    if (err instanceof PageCorrupt)
      throw new DataError('DATA_CORRUPT', `${file}: column '${leaf.name}': ${err.message}`, {
        hint: 'The file is damaged: copy or export it again.',
      });
    throw err;
  }
}

function sinkFor(
  plan: LeafPlan,
  leaf: ParquetLeaf,
  numRows: number,
  onStep?: () => void,
  ruleRows?: number,
  capacity?: number,
  bytesBound?: number,
): ColumnSink {
  if (plan.physical === 'BOOLEAN') return new BoolSink(numRows);
  if (plan.physical === 'BYTE_ARRAY')
    return new StringSink(numRows, USER_MAX_DICT_SIZE, onStep, ruleRows, capacity, bytesBound);
  const type = leaf.type === 'date' ? 'date' : leaf.type === 'integer' ? 'integer' : 'number';
  return new NumberSink(plan, type, numRows, capacity);
}
