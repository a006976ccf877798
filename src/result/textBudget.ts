import type { RunResult, TableResult } from '../../schema/result.js';
import { RESULT_CHARS_BOUNDS } from '../../schema/tool.js';

/** Characters of result text a model gets by default (see docs/integrations.md for how clients cap tool output). */
export const DEFAULT_MAX_RESULT_CHARS = 16_000;
/** The smallest budget: below it even a table's shape and a hint would not fit. */
export const MIN_RESULT_CHARS = RESULT_CHARS_BOUNDS.min;
/** The largest budget a server, session or call may set (what run_analysis declares to hosts). */
export const MAX_RESULT_CHARS = RESULT_CHARS_BOUNDS.max;
/** A single cell or value line longer than this is cut in the text (the full value stays in the structured result). */
const MAX_CELL_CHARS = 200;

/** How much of a run's output goes into the text a model reads. */
export interface TextBudget {
  /** Characters for stdout, stderr, tables and the value together. @default 16000 */
  maxChars?: number;
  /** First row of the returned table to show (paging through it). @default 0 */
  rowOffset?: number;
}

/** The parts of a result, each cut to its share of the budget, in reading order. */
export interface BudgetedParts {
  stdout?: string;
  stderr?: string;
  /** The display() tables, then the returned table, as Markdown with their shape and paging line. */
  tables: string[];
  /** The value's text when it is not a table. */
  value?: string;
  /** True when `value` was cut (it is then text, no longer the JSON value). */
  valueCut?: boolean;
  /** What was cut and how to get it; empty when everything fit. */
  cuts: string[];
}

/**
 * Check a budget given by a caller (option, header, tool argument).
 * @throws {RangeError} with a message for the caller when it is not an integer within [1000, 200000].
 * @example resolveMaxChars(undefined) // 16000
 */
export function resolveMaxChars(value: unknown, name = 'maxResultChars'): number {
  if (value === undefined || value === null || value === '') return DEFAULT_MAX_RESULT_CHARS;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < MIN_RESULT_CHARS || n > MAX_RESULT_CHARS) {
    throw new RangeError(
      `Expected \`${name}\` to be an integer from ${MIN_RESULT_CHARS} to ${MAX_RESULT_CHARS} (characters of result text), got \`${String(value)}\``,
    );
  }
  return n;
}

/**
 * Fit a result's stdout, stderr, tables and value into `maxChars` characters: when it all fits it
 * is returned whole; otherwise each part gets a fair share (small parts whole, large ones cut),
 * tables keep their header, shape and first rows, long text keeps its head and tail, and `cuts`
 * says what went and how to see it (a `row_offset`, `.slice()`, or the full structured result).
 * @example budgetParts(result, { maxChars: 4000 }).tables[0]
 */
export function budgetParts(result: RunResult, budget: TextBudget = {}): BudgetedParts {
  const maxChars = budget.maxChars ?? DEFAULT_MAX_RESULT_CHARS;
  const offset = Math.max(0, Math.floor(budget.rowOffset ?? 0));
  const tables = [...(result.displays ?? []), ...(result.table ? [result.table] : [])];
  const value = result.table
    ? undefined
    : (result.valueText ?? (result.value !== undefined ? JSON.stringify(result.value) : undefined));
  const whole =
    (result.stdout?.length ?? 0) +
    (result.stderr?.length ?? 0) +
    tables.reduce((n, t) => n + t.markdown.length, 0) +
    (value?.length ?? 0);
  if (whole <= maxChars && offset === 0) {
    return {
      ...(result.stdout ? { stdout: result.stdout } : {}),
      ...(result.stderr ? { stderr: result.stderr } : {}),
      tables: tables.map((t) => t.markdown),
      ...(value !== undefined ? { value } : {}),
      cuts: [],
    };
  }
  // fair shares: the smallest parts are kept whole, what they leave goes to the larger ones
  type Part = { key: 'stdout' | 'stderr' | 'value' | number; size: number };
  const parts: Part[] = [];
  if (result.stdout) parts.push({ key: 'stdout', size: result.stdout.length });
  if (result.stderr) parts.push({ key: 'stderr', size: result.stderr.length });
  tables.forEach((t, i) => parts.push({ key: i, size: tableSize(t, offset) }));
  if (value !== undefined) parts.push({ key: 'value', size: value.length });
  parts.sort((a, b) => a.size - b.size);
  const share = new Map<Part['key'], number>();
  let left = maxChars;
  parts.forEach((p, i) => {
    const s = Math.min(p.size, Math.floor(left / (parts.length - i)));
    share.set(p.key, s);
    left -= s;
  });
  const cuts: string[] = [];
  const out: BudgetedParts = { tables: [], cuts };
  if (result.stdout) out.stdout = cutText(result.stdout, share.get('stdout')!, 'stdout', cuts);
  if (result.stderr) out.stderr = cutText(result.stderr, share.get('stderr')!, 'stderr', cuts);
  tables.forEach((t, i) =>
    out.tables.push(tableText(t, offset, share.get(i)!, i === tables.length - 1 && !!result.table, cuts)),
  );
  if (value !== undefined) {
    out.value = cutText(value, share.get('value')!, 'value', cuts);
    if (out.value !== value) out.valueCut = true;
  }
  return out;
}

/** The head and tail of `text` within `max` characters, with a marker where the middle went. */
function cutText(text: string, max: number, what: string, cuts: string[]): string {
  if (text.length <= max) return text;
  const room = Math.max(0, max - 120);
  const head = text.slice(0, Math.ceil(room * 0.7));
  const tail = room - head.length > 0 ? text.slice(text.length - (room - head.length)) : '';
  const cut = text.length - head.length - tail.length;
  cuts.push(
    `${cut.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters of ${what} were cut from the middle: print or return less (aggregate, .head()), raise max_chars, or read the full ${what} in the structured result.`,
  );
  return `${head}\n… [${cut.toLocaleString('en-US')} characters of ${what} cut] …\n${tail}`;
}

const escapeCell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r\n|\r|\n/g, ' ');

function cellText(v: unknown): { text: string; cut: boolean } {
  const s =
    v === null || v === undefined
      ? ''
      : typeof v === 'string'
        ? v
        : typeof v === 'object'
          ? JSON.stringify(v)
          : String(v);
  if (s.length <= MAX_CELL_CHARS) return { text: escapeCell(s), cut: false };
  return { text: `${escapeCell(s.slice(0, MAX_CELL_CHARS))}… [+${s.length - MAX_CELL_CHARS} chars]`, cut: true };
}

/** The size a table's rows from `offset` take as Markdown (an estimate from the pre-rendered text when not paging). */
function tableSize(t: TableResult, offset: number): number {
  if (offset === 0) return t.markdown.length;
  return t.rows
    .slice(offset)
    .reduce<number>((n, r) => n + r.reduce<number>((m, c) => m + cellText(c).text.length + 3, 2), 200);
}

/** A table as Markdown within `max` characters: shape, header, the rows from `offset` that fit, and how to see more. */
function tableText(t: TableResult, offset: number, max: number, returned: boolean, cuts: string[]): string {
  if (offset === 0 && t.markdown.length <= max) return t.markdown;
  const shape = `${t.totalRows.toLocaleString('en-US')} rows × ${t.columns.length} columns: ${t.columns.map((c, i) => `${c} (${t.dtypes[i]})`).join(', ')}`;
  const head = `| ${t.columns.map((c) => escapeCell(c) || ' ').join(' | ')} |\n| ${t.dtypes.map((d) => (d === 'number' || d === 'integer' ? '---:' : '---')).join(' | ')} |`;
  const lines = [`table: ${shape}`, head];
  let used = lines.join('\n').length + 400; // room for the paging line
  let shown = 0;
  let longCells = false;
  for (let i = offset; i < t.rows.length; i++) {
    const cells = t.rows[i]!.map(cellText);
    const line = `| ${cells.map((c) => c.text).join(' | ')} |`;
    if (used + line.length + 1 > max && shown > 0) break;
    if (used + line.length + 1 > max) {
      lines.push(line.slice(0, Math.max(40, max - used)) + '…');
      shown = 1;
      longCells = true;
      break;
    }
    longCells ||= cells.some((c) => c.cut);
    lines.push(line);
    used += line.length + 1;
    shown++;
  }
  const first = offset + 1;
  const last = offset + shown;
  const next = `Next rows: call run_analysis again with row_offset: ${last}${returned ? '' : ' (for the returned table)'} or return .slice(${last}, ${last + Math.max(shown, 10)}) of the table.`;
  const inResult = t.rows.length;
  const paging =
    shown === 0
      ? `No rows from row ${first}: the result holds ${inResult} rows.`
      : `Rows ${first}–${last} of ${t.totalRows.toLocaleString('en-US')} shown.${last < inResult ? ` ${next}` : ''}${inResult < t.totalRows && last >= inResult ? ` Only the first ${inResult} rows came back (maxRows): filter, aggregate or .slice() in the code to see others.` : ''}`;
  if (last < t.totalRows)
    cuts.push(
      `A table was cut to rows ${first}–${last} of ${t.totalRows.toLocaleString('en-US')}; page with row_offset or narrow it in the code.`,
    );
  if (longCells)
    cuts.push(`Cells over ${MAX_CELL_CHARS} characters were cut in the text; the structured result has them whole.`);
  lines.push('', paging);
  return lines.join('\n');
}
