/**
 * A table as CSV bytes (files/csv.ts's format: a header row, `\n` line ends, nulls empty, dates
 * ISO-8601 UTC, formula text escaped unless `escapeFormulas` is false), written row by row straight into one growing UTF-8 buffer from the column plans
 * the Parquet writer uses: no row strings, no text of the whole file, no second encoding pass.
 */
import type { ColumnTable } from 'arquero';
import { planColumns } from '../parquet/plan.js';
import { ByteSink } from '../parquet/byteSink.js';
import type { SizeLimit } from '../parquet/writeParquet.js';
import { csvCells, writeField } from './csvCells.js';

/**
 * The CSV file of `t` (its visible rows, in order).
 * @example writeCsv(award_data.select('Company', 'Award Amount')).byteLength
 */
export function writeCsv(t: ColumnTable, limit?: SizeLimit, escapeFormulas = true): Uint8Array {
  const plans = planColumns(t, true);
  const numRows = t.numRows();
  const out = new ByteSink(Math.min(Math.max(1 << 16, numRows * plans.length * 8), limit ? limit.bytes + 1 : Infinity));
  if (limit) out.setLimit(limit.bytes, limit.overLimit);
  plans.forEach((p, c) => {
    if (c) out.byte(44);
    writeField(out, p.name, escapeFormulas);
  });
  out.byte(10);
  const cells = plans.map((p) => csvCells(p, out, escapeFormulas));
  const m = cells.length;
  for (let k = 0; k < numRows; k++) {
    for (let c = 0; c < m; c++) {
      if (c) out.byte(44);
      cells[c](k);
    }
    out.byte(10);
  }
  return out.result();
}
