/**
 * pandas-like text rendering of a table (what `print(table)` shows): right-aligned columns, a
 * positional index, long tables cut in the middle with `...`, wide tables cut in the middle too,
 * and `[N rows x M columns]` when anything was cut.
 */
import type { ColumnTable } from 'arquero';
import { formatColumns } from './cells.js';

/** Display options; the defaults follow pandas (max_rows 60, min_rows 10, max_columns 20, max_colwidth 50). */
export interface TableTextOptions {
  /** Tables longer than this are cut to `minRows` rows. @default 60 */
  maxRows?: number;
  /** Rows shown (half at each end) when cut. @default 10 */
  minRows?: number;
  /** Most columns shown (half at each end). @default 20 */
  maxColumns?: number;
  /** Most characters per line before more middle columns are cut. @default 160 */
  width?: number;
  /** Longest cell, in characters. @default 50 */
  maxColWidth?: number;
}

const pad = (s: string, w: number) => (s.length >= w ? s : ' '.repeat(w - s.length) + s);
const padRight = (s: string, w: number) => (s.length >= w ? s : s + ' '.repeat(w - s.length));

/**
 * Renders `t` as text.
 * @example tableText(aq.table({ a: [1, 2] })) // '   a\n0  1\n1  2'
 */
export function tableText(t: ColumnTable, options: TableTextOptions = {}): string {
  const { maxRows = 60, minRows = 10, maxColumns = 20, width = 160, maxColWidth = 50 } = options;
  const n = t.numRows();
  const names = t.columnNames();
  if (n === 0 || names.length === 0) {
    return `Empty DataFrame\nColumns: [${names.join(', ')}]\nIndex: [${n ? `0..${n - 1}` : ''}]`;
  }
  const indices = t.indices();
  const cutRows = n > maxRows;
  const head = cutRows ? Math.ceil(minRows / 2) : n;
  const tail = cutRows ? Math.floor(minRows / 2) : 0;
  const positions: number[] = [];
  for (let p = 0; p < head; p++) positions.push(p);
  for (let p = n - tail; p < n; p++) positions.push(p);
  const rows = positions.map((p) => indices[p]);

  // choose columns: at most maxColumns, then cut the middle until the line fits
  let left = names.length > maxColumns ? Math.ceil(maxColumns / 2) : names.length;
  let right = names.length > maxColumns ? Math.floor(maxColumns / 2) : 0;
  const shownNames = () => [...names.slice(0, left), ...names.slice(names.length - right)];
  const { cells } = formatColumns(t, shownNames(), rows, maxColWidth);
  const labels = positions.map(String);
  const idxW = Math.max(cutRows ? 2 : 0, ...labels.map((l) => l.length));
  const colWidths = () =>
    shownNames().map((name, j) => Math.max(name.length, cutRows ? 3 : 0, ...cells[j].map((c) => c.length)));
  let widths = colWidths();
  const lineWidth = () => idxW + widths.reduce((a, w) => a + w + 2, 0) + (left + right < names.length ? 5 : 0);
  while (lineWidth() > width && left + right > 1) {
    if (left >= right && left > 1) {
      left--;
      cells.splice(left, 1);
    } else if (right > 0) {
      cells.splice(left, 1);
      right--;
    } else break;
    widths = colWidths();
  }
  const cutCols = left + right < names.length;
  const shown = shownNames();

  const line = (index: string, parts: string[]) => {
    const out = [padRight(index, idxW)];
    parts.forEach((p, j) => {
      if (cutCols && j === left) out.push('...');
      out.push(pad(p, widths[j]));
    });
    if (cutCols && left === parts.length) out.push('...');
    return out.join('  ').replace(/\s+$/, '');
  };
  const lines = [line('', shown)];
  positions.forEach((_, i) => {
    if (cutRows && i === head)
      lines.push(
        line(
          '..',
          shown.map(() => '...'),
        ),
      );
    lines.push(
      line(
        labels[i],
        cells.map((c) => c[i]),
      ),
    );
  });
  if (cutRows || cutCols) lines.push('', `[${n} rows x ${names.length} columns]`);
  return lines.join('\n');
}
