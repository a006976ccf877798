/**
 * A table as Parquet bytes, written column by column from the column forms (see plan.ts): row
 * groups of 100,000 rows, one data page per column chunk, dictionary-coded host text as
 * RLE_DICTIONARY over its own dictionary, everything else PLAIN, pages UNCOMPRESSED.
 */
import type { ColumnTable } from 'arquero';
import { planColumns, type ColumnPlan } from './plan.js';
import { giveBack, takeScratch, takeSink } from './pool.js';
import { writeChunk } from './chunk.js';
import { writeFooter, type RowGroupMeta } from './footer.js';

/** Rows per row group (readers can skip or parallelise by group). */
export const ROW_GROUP_ROWS = 100_000;

const MAGIC = [0x50, 0x41, 0x52, 0x31]; // PAR1

/** A cap on the file's size: past `bytes`, `overLimit` is called (and must throw) before more memory is taken. */
export interface SizeLimit {
  bytes: number;
  overLimit: (bytes: number) => void;
}

/**
 * The Parquet file of `t` (its visible rows, in order).
 * @example writeParquet(award_data.select('Company', 'Award Amount')).byteLength
 */
export function writeParquet(
  t: ColumnTable,
  rowGroupRows = ROW_GROUP_ROWS,
  limit?: SizeLimit,
  snappy = false,
): Uint8Array {
  const numRows = t.numRows();
  const plans = planColumns(t);
  const out = takeSink(Math.min(sizeHint(plans, numRows), limit ? limit.bytes + 1 : Infinity));
  out.setLimit(limit ? limit.bytes : Infinity, limit ? limit.overLimit : null);
  const scratch = takeScratch(Math.min(numRows, rowGroupRows));
  try {
    for (const b of MAGIC) out.byte(b);
    const groups: RowGroupMeta[] = [];
    for (let a = 0; a < numRows; a += rowGroupRows) {
      const b = Math.min(numRows, a + rowGroupRows);
      groups.push({ numRows: b - a, chunks: plans.map((p) => writeChunk(out, p, a, b, scratch, snappy)) });
    }
    const footerStart = out.pos;
    writeFooter(out, plans, groups, numRows);
    out.u32(out.pos - footerStart);
    for (const b of MAGIC) out.byte(b);
    return out.result();
  } finally {
    giveBack(out, scratch);
  }
}

/** A first capacity near the file's size, so the buffer rarely grows (each growth copies it). */
function sizeHint(plans: ColumnPlan[], numRows: number): number {
  let perRow = 0;
  for (const p of plans) {
    if (p.kind === 'boolean') perRow += 0.25;
    else if (p.kind === 'null') perRow += 0.125;
    else if (p.kind === 'dict') perRow += 2.5 + Math.min(16, p.dictBytes.length / Math.max(1, numRows));
    else if (p.kind === 'utf8') perRow += 4.125 + p.bytes.length / Math.max(1, p.offsets.length - 1);
    else if (p.kind === 'text') perRow += 20;
    else perRow += 8.125;
  }
  return Math.ceil(4096 + 512 * plans.length + perRow * numRows);
}
