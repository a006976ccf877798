/** A table as a JSON array of row objects, or NDJSON (one object per line); dates ISO-8601 UTC, non-finite numbers null. */
import type { FileColumn } from './columnsOf.js';
import { textOf } from './columnsOf.js';

function value(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'object' && !(v instanceof Date)) return textOf(v) ?? 'null';
  return JSON.stringify(textOf(v));
}

/** JSON (`lines: false`) or NDJSON (`lines: true`) text of the columns. */
export function jsonText(columns: FileColumn[], numRows: number, lines: boolean): string {
  const keys = columns.map((c) => JSON.stringify(c.name) + ':');
  const rows: string[] = new Array(numRows);
  for (let r = 0; r < numRows; r++) {
    let s = '{';
    for (let c = 0; c < columns.length; c++) s += (c ? ',' : '') + keys[c] + value(columns[c].values[r]);
    rows[r] = s + '}';
  }
  return lines ? rows.join('\n') + (numRows ? '\n' : '') : '[' + rows.join(',\n') + ']\n';
}
