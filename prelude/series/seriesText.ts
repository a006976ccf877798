/**
 * A Series printed like pandas: labels on the left, values right-aligned, long Series cut to their
 * first and last 5 values, then `Name: ..., Length: ..., dtype: ...`.
 */
import { cellFormatter, clip } from '../format/cells.js';
import type { Series } from './Series.js';

const PANDAS_DTYPE: Record<string, string> = {
  number: 'float64',
  integer: 'int64',
  string: 'object',
  date: 'datetime64[ns]',
  boolean: 'bool',
  object: 'object',
};

/**
 * The text of a Series.
 * @example seriesText(award_data.Phase.head(2)) // '0     Phase I\n1    Phase II\nName: Phase, dtype: object'
 */
export function seriesText(s: Series, maxRows = 60, minRows = 10): string {
  const n = s.length;
  const cut = n > maxRows;
  const positions: number[] = [];
  const head = cut ? minRows / 2 : n;
  for (let i = 0; i < head; i++) positions.push(i);
  if (cut) for (let i = n - minRows / 2; i < n; i++) positions.push(i);
  let dtype = PANDAS_DTYPE[s.dtypeName];
  const shown = positions.map((i) => s.get(i));
  if (dtype === 'int64' && shown.some((v) => v === null)) dtype = 'float64';
  const f = cellFormatter(s.dtypeName, shown);
  const cells = shown.map((v) => clip(f(v), 50));
  const labels = positions.map((i) => String(s.label(i)));
  const lw = Math.max(cut ? 2 : 0, ...labels.map((l) => l.length));
  const vw = Math.max(cut ? 3 : 0, ...cells.map((c) => c.length));
  const lines: string[] = [];
  positions.forEach((_, k) => {
    if (cut && k === head) lines.push(`${'..'.padEnd(lw)}    ${'...'.padStart(vw)}`);
    lines.push(`${labels[k].padEnd(lw)}    ${cells[k].padStart(vw)}`);
  });
  const name = s.name === null ? '' : `Name: ${s.name}, `;
  const footer = `${name}${cut ? `Length: ${n}, ` : ''}dtype: ${dtype}`;
  if (n === 0) return `Series([], ${footer.replace(/, $/, '')})`;
  return [...lines, footer].join('\n');
}
