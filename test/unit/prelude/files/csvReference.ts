/** The previous to_csv (kept as the reference of csvWriter.test.ts): RFC 4180 CSV of a table: a header row, CRLF-free `\n` lines, fields quoted when needed, nulls empty, dates ISO-8601 UTC. */
import type { FileColumn } from '../../../../prelude/files/columnsOf.js';
import { textOf } from '../../../../prelude/files/columnsOf.js';

const NEEDS_QUOTES = /[",\n\r]|^\s|\s$/;

function field(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const s = textOf(v) ?? '';
  return NEEDS_QUOTES.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

/** The CSV text of the columns. */
export function csvText(columns: FileColumn[], numRows: number): string {
  const parts: string[] = [columns.map((c) => field(c.name)).join(',')];
  for (let r = 0; r < numRows; r++) {
    let line = '';
    for (let c = 0; c < columns.length; c++) line += (c ? ',' : '') + field(columns[c].values[r]);
    parts.push(line);
  }
  return parts.join('\n') + '\n';
}
