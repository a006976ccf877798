/** Column-wise cell formatting shared by the text (print) and Markdown renderings of a table. */
import type { ColumnTable } from 'arquero';
import { dtypeOf, isNull, type Dtype } from '../frame/common.js';
import { numberFormatter } from './number.js';
import { inspect } from './inspect.js';

/** Formats a Date in UTC: `YYYY-MM-DD` when the column has no time of day, else `YYYY-MM-DD HH:MM:SS`. */
export function formatDate(d: Date, withTime: boolean): string {
  const t = d.getTime();
  if (t !== t) return 'NaT';
  const iso = d.toISOString();
  return withTime ? iso.slice(0, 19).replace('T', ' ') : iso.slice(0, 10);
}

/** Shortens a cell to `width` characters with a trailing `...` (pandas' max_colwidth). */
export function clip(s: string, width: number): string {
  return s.length > width ? s.slice(0, Math.max(0, width - 3)) + '...' : s;
}

/** Escapes newlines and tabs so a cell stays on one line. */
export function oneLine(s: string): string {
  return s.replace(/\r\n|\r|\n/g, '\\n').replace(/\t/g, '\\t');
}

/**
 * A formatter for the cells of one column, given the values that will be shown.
 * Missing values print as NaN (NaT for dates); booleans as True/False, like pandas.
 */
export function cellFormatter(dtype: Dtype, shown: readonly unknown[]): (v: unknown) => string {
  const nums = shown.filter((v): v is number => typeof v === 'number');
  const fnum = numberFormatter(nums);
  const withTime = shown.some((v) => v instanceof Date && v.getTime() % 86400000 !== 0);
  return (v) => {
    if (isNull(v)) return dtype === 'date' ? 'NaT' : 'NaN';
    if (typeof v === 'number') return fnum(v);
    if (typeof v === 'string') return oneLine(v);
    if (typeof v === 'boolean') return v ? 'True' : 'False';
    if (v instanceof Date) return formatDate(v, withTime);
    return oneLine(inspect(v, { depth: 1, breakLength: Infinity }));
  };
}

/** The shown rows of a table as formatted strings per column, plus the dtypes (`known`: already read, one per name). */
export function formatColumns(
  t: ColumnTable,
  names: string[],
  rows: ArrayLike<number>,
  width: number,
  known?: readonly Dtype[],
): { cells: string[][]; dtypes: Dtype[] } {
  const cells: string[][] = [];
  const dtypes: Dtype[] = [];
  for (let c = 0; c < names.length; c++) {
    const name = names[c]!;
    const col = t.column(name)!;
    const shown: unknown[] = [];
    for (let i = 0; i < rows.length; i++) shown.push(col.at(rows[i]));
    const dtype = known?.[c] ?? dtypeOf(t, name);
    const f = cellFormatter(dtype, shown);
    cells.push(shown.map((v) => clip(f(v), width)));
    dtypes.push(dtype);
  }
  return { cells, dtypes };
}
