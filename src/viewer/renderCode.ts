import type { RunError } from '../../schema/errors.js';
import { highlightLines } from './highlightCode.js';
import { html, trusted, type SafeHtml } from './html.js';

/** Most lines of code shown for one run. */
export const SHOW_MAX_LINES = 5000;

/** The error's note under its line: type, message and hint (all escaped). */
export function errorNote(e: RunError): SafeHtml {
  const where = e.line ? ` at line ${e.line}${e.column ? `, column ${e.column}` : ''}` : '';
  return html`<div class="sb-error" role="note"><div class="sb-error-head"><span class="sb-badge sb-bad">${e.type}</span>${where}</div>
<div class="sb-error-msg">${e.message.slice(0, 20_000)}</div>
${e.hint ? html`<div class="sb-hint"><b>Hint:</b> ${e.hint.slice(0, 20_000)}</div>` : ''}
${e.violations?.length ? html`<ul class="sb-violations">${e.violations.slice(0, 50).map((v) => html`<li>line ${v.line}, col ${v.column}: ${v.message} — ${v.hint}</li>`)}</ul>` : ''}</div>`;
}

/**
 * Code with syntax highlighting and line numbers; the lines where the run failed (the error's
 * line, or each policy violation's) are marked, with the error and its hint right under the line.
 * @example renderCode('1 +', { type: 'SYNTAX_ERROR', message: '…', line: 1 })
 */
export function renderCode(code: string, error?: RunError): SafeHtml {
  const lines = highlightLines(code);
  const marked = new Set<number>();
  if (error?.line) marked.add(error.line);
  for (const v of error?.violations ?? []) marked.add(v.line);
  const noteAt = error?.line ?? error?.violations?.[0]?.line;
  const shown = lines.slice(0, SHOW_MAX_LINES);
  const rows = shown.map((markup, i) => {
    const n = i + 1;
    const bad = marked.has(n);
    const row = html`<div class="sb-ln${bad ? ' sb-err-line' : ''}" data-line="${n}"><span class="sb-no" aria-hidden="true">${n}</span><code>${trusted(markup || ' ')}</code></div>`;
    return n === noteAt && error ? html`${row}${errorNote(error)}` : row;
  });
  const more = lines.length > shown.length ? html`<div class="sb-more">… ${lines.length - shown.length} more lines not shown</div>` : '';
  // an error whose line is past the code (or missing) is shown after the code
  const tail = error && (!noteAt || noteAt > shown.length) ? errorNote(error) : '';
  return html`<div class="sb-code hljs">${rows}${more}</div>${tail}`;
}
