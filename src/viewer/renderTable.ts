import type { CapsuleTable } from '../capsule/capsuleOutputs.js';
import { html, type SafeHtml } from './html.js';

/** Most rows of one table put in a page (the rest is counted, not shown). */
export const SHOW_MAX_ROWS = 1000;
/** Rows per page of a paged table. */
export const PAGE_ROWS = 20;
const CELL_MAX_CHARS = 2000;
const HEADER_MAX_CHARS = 200;
/** Characters of cells one table may show when the caller gives no bound. */
const TABLE_MAX_CHARS = 400_000;

const fmt = (n: number) => n.toLocaleString('en-US');

/** Integers as they are (years stay 2019); other numbers grouped and rounded to cents, or to 6 significant digits when small. */
function number(v: number, dtype: string): string {
  if (dtype === 'integer' || !Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 1000) return v.toLocaleString('en-US', { maximumFractionDigits: 2 });
  return String(Number(v.toPrecision(6)));
}

/** One cell and the characters it costs (its text is in the page twice: sort key and content). */
function cell(v: unknown, dtype: string): [SafeHtml, number] {
  if (v === null || v === undefined) return [html`<td class="sb-null" data-v="">null</td>`, 4];
  if (typeof v === 'number') return [html`<td class="sb-num" data-v="${v}">${number(v, dtype)}</td>`, 24];
  let text = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  if (text.length > CELL_MAX_CHARS) text = `${text.slice(0, CELL_MAX_CHARS)}…`;
  return [html`<td data-v="${text}">${text}</td>`, 2 * text.length + 4];
}

/**
 * A table output: header with sort buttons (the page script sorts and pages client-side), at most
 * SHOW_MAX_ROWS rows, and its shape. Every cell is escaped text.
 * @example renderTable({ columns: ['a'], dtypes: ['integer'], rows: [[1]], totalRows: 1, truncated: false }, 'Table')
 */
export function renderTable(t: CapsuleTable, caption: string, maxChars = TABLE_MAX_CHARS): SafeHtml {
  const rows = Array.isArray(t.rows) ? t.rows.slice(0, SHOW_MAX_ROWS) : [];
  const columns = t.columns.slice(0, 500);
  const numeric = (i: number) => ['number', 'integer'].includes(t.dtypes[i] ?? '');
  const head = columns.map(
    (c, i) =>
      html`<th scope="col" data-type="${numeric(i) ? 'number' : 'text'}" aria-sort="none"><button type="button" class="sb-sort" data-col="${i}">${String(c).slice(0, HEADER_MAX_CHARS)}</button></th>`,
  );
  // rows until the table's character budget is spent: a thousand rows of 2,000-character cells
  // in 500 columns would otherwise be a gigabyte of page
  let used = 0;
  const body: SafeHtml[] = [];
  for (const [ri, r] of rows.entries()) {
    const cells = columns.map((_, i) => cell(Array.isArray(r) ? r[i] : undefined, t.dtypes[i] ?? ''));
    const cost = cells.reduce((n, [, c]) => n + c, 0);
    if (body.length && used + cost > maxChars) break;
    used += cost;
    body.push(html`<tr${ri >= PAGE_ROWS ? html` hidden` : ''}>${cells.map(([c]) => c)}</tr>`);
  }
  const shown = body.length;
  const shape = `${fmt(t.totalRows)} row${t.totalRows === 1 ? '' : 's'} × ${fmt(t.columns.length)} column${t.columns.length === 1 ? '' : 's'}`;
  const kept =
    shown < t.totalRows
      ? ` · the first ${fmt(shown)} kept${shown < rows.length ? " (the page's size bound)" : ''}`
      : '';
  return html`<div class="sb-table" data-page-rows="${PAGE_ROWS}" data-rows="${shown}">
<div class="sb-table-head"><span class="sb-caption">${caption}</span> <span class="sb-shape">${shape}${kept}</span></div>
<div class="sb-scroll"><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>
${shown > PAGE_ROWS ? html`<div class="sb-pager"><button type="button" class="sb-prev">‹ Prev</button> <span class="sb-page">rows 1–${Math.min(PAGE_ROWS, shown)} of ${fmt(shown)}</span> <button type="button" class="sb-next">Next ›</button></div>` : ''}
</div>`;
}
