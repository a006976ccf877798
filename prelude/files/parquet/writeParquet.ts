/**
 * A table as Parquet bytes, written column by column from the column forms (see plan.ts): row
 * groups of 100,000 rows, one data page per column chunk, dictionary-coded host text as
 * RLE_DICTIONARY over its own dictionary, everything else PLAIN, pages UNCOMPRESSED.
 */
import type { ColumnTable } from 'arquero';
import { ByteSink } from './byteSink.js';
import { planColumns } from './plan.js';
import { Scratch } from './scratch.js';
import { writeChunk } from './chunk.js';
import { writeFooter, type RowGroupMeta } from './footer.js';

/** Rows per row group (readers can skip or parallelise by group). */
export const ROW_GROUP_ROWS = 100_000;

const MAGIC = [0x50, 0x41, 0x52, 0x31]; // PAR1

/**
 * The Parquet file of `t` (its visible rows, in order).
 * @example writeParquet(award_data.select('Company', 'Award Amount')).byteLength
 */
export function writeParquet(t: ColumnTable, rowGroupRows = ROW_GROUP_ROWS): Uint8Array {
  const numRows = t.numRows();
  const plans = planColumns(t);
  const out = new ByteSink(1 << 20);
  for (const b of MAGIC) out.byte(b);
  const scratch = new Scratch(Math.min(numRows, rowGroupRows));
  const groups: RowGroupMeta[] = [];
  for (let a = 0; a < numRows; a += rowGroupRows) {
    const b = Math.min(numRows, a + rowGroupRows);
    groups.push({ numRows: b - a, chunks: plans.map((p) => writeChunk(out, p, a, b, scratch)) });
  }
  const footerStart = out.pos;
  writeFooter(out, plans, groups, numRows);
  out.u32(out.pos - footerStart);
  for (const b of MAGIC) out.byte(b);
  return out.result();
}
