/** The Markdown rendering of a table result, written for an LLM to read. */
import type { Dtype } from '../frame/common.js';
import { clip } from './cells.js';

const escapeCell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r\n|\r|\n/g, ' ');

/**
 * Renders formatted cells (row-major) as a GitHub Markdown table; numbers are right-aligned.
 * `footer` is appended as a final line (e.g. "1,000 of 5,000 rows shown").
 * @example markdownTable(['a'], ['integer'], [['1']]) // '| a |\n| ---: |\n| 1 |'
 */
export function markdownTable(
  columns: readonly string[],
  dtypes: readonly Dtype[],
  rows: readonly string[][],
  footer?: string,
): string {
  const head = `| ${columns.map((c) => escapeCell(c) || ' ').join(' | ')} |`;
  const rule = `| ${dtypes.map((d) => (d === 'number' || d === 'integer' ? '---:' : '---')).join(' | ')} |`;
  const body = rows.map((r) => `| ${r.map((c) => escapeCell(clip(c, 100))).join(' | ')} |`);
  return [head, rule, ...body, ...(footer ? ['', footer] : [])].join('\n');
}
