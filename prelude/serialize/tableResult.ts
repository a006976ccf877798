/**
 * A table as the result's `table` (or a `displays` entry): JSON matching schema/result.ts
 * TableResultSchema - columns, dtypes, row-major cells (dates as ISO strings, non-finite numbers as
 * null), totalRows, truncated and a Markdown rendering. Rows are capped by maxRows and by the byte
 * budget: the JSON rows may use half of what remains, the Markdown the rest.
 */
import type { ColumnTable } from 'arquero';
import { JSONStringify } from '../intrinsics.js';
import { dtypeOf, type Dtype } from '../frame/common.js';
import { formatColumns } from '../format/cells.js';
import { markdownTable } from '../format/markdown.js';
import { Budget, JsonOut } from './jsonOut.js';
import { writeCell } from './writeJson.js';
import { utf8Length } from '../polyfills/utf8.js';
import { cutToBytes } from '../output/output.js';

/** How a cell that is not a number, text, boolean or null is written (a nested array, object, Date...). */
const CELL_OPTIONS = { maxDepth: 4, maxRows: 20 };

/** The most rows rendered in the Markdown, even when more rows fit in `rows`. */
const MARKDOWN_ROWS = 200;

/**
 * JSON text of a TableResult for `t`, drawing bytes from `budget`.
 * @returns undefined when not even the column header fits.
 */
export function tableResultJson(t: ColumnTable, budget: Budget, maxRows: number): string | undefined {
  const names = t.columnNames();
  const dtypes = names.map((n) => dtypeOf(t, n));
  const total = t.numRows();
  const idx = t.indices();
  const cols = names.map((n) => t.column(n)!);

  const head = new JsonOut(budget);
  if (!head.push(`{"columns":${JSONStringify(names)},"dtypes":${JSONStringify(dtypes)},"totalRows":${total},"rows":`))
    return undefined;

  // rows: at most half of what is left, so the Markdown has room too
  const half = new Budget(Math.floor(budget.remaining / 2));
  const rowsOut = new JsonOut(half);
  const opened = rowsOut.open('[');
  let shown = 0;
  const limit = Math.min(total, maxRows);
  for (; opened && shown < limit; shown++) {
    const m = rowsOut.mark();
    if ((shown > 0 && !rowsOut.pushAscii(',')) || !rowsOut.open('[')) {
      rowsOut.rollback(m);
      break;
    }
    let ok = true;
    for (let j = 0; j < cols.length && ok; j++) {
      if (j > 0 && !rowsOut.pushAscii(',')) ok = false;
      else if (!writeCell(cols[j].at(idx[shown]), rowsOut, CELL_OPTIONS)) ok = false;
    }
    if (!ok) {
      rowsOut.rollback(m);
      break;
    }
    rowsOut.close(']');
  }
  if (opened) rowsOut.close(']');
  const rowsText = opened ? rowsOut.text() : '[]';
  const used = Math.floor(budget.remaining / 2) - half.remaining;
  budget.remaining -= used;
  const truncated = shown < total || half.truncated;
  if (half.truncated) budget.truncated = true;
  if (shown < total) budget.truncated = true;

  const md = markdownFor(t, names, dtypes, idx, shown, total, budget);
  const tail = `,"truncated":${truncated},"markdown":${JSONStringify(md)}}`;
  budget.remaining -= utf8Length(tail);
  return head.text() + rowsText + tail;
}

function markdownFor(
  t: ColumnTable,
  names: string[],
  known: readonly Dtype[],
  idx: ArrayLike<number>,
  shown: number,
  total: number,
  budget: Budget,
): string {
  const n = Math.min(shown, MARKDOWN_ROWS);
  const rows = Array.from({ length: n }, (_, i) => idx[i]);
  const { cells, dtypes } = formatColumns(t, names, rows, 100, known);
  const rowCells = rows.map((_, i) => cells.map((c) => c[i]));
  const room = Math.max(0, budget.remaining - 64);
  const size = (s: string) => utf8Length(JSONStringify(s) as string);
  const render = (k: number) => markdownTable(names, dtypes, rowCells.slice(0, k), footer(k, total));
  let md = render(rowCells.length);
  if (size(md) > room) {
    // drop rows until the Markdown fits (binary search keeps this fast for big tables)
    let lo = 0;
    let hi = rowCells.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (size(render(mid)) <= room) lo = mid;
      else hi = mid - 1;
    }
    md = render(lo);
    if (size(md) > room) md = cutToBytes(md, Math.floor(room / 2));
    budget.truncated = true;
  }
  return md;
}

function footer(shown: number, total: number): string | undefined {
  return shown < total ? `(${shown} of ${total} rows shown)` : undefined;
}
