import type { RunError } from '../../schema/errors.js';
import { highlightLines } from './highlightCode.js';
import { clipText } from './clip.js';
import { html, trusted, type SafeHtml } from './html.js';

/** Most lines of code shown for one run. */
export const SHOW_MAX_LINES = 5000;

/** The error's note under its line: type, message and hint (all escaped, each cut to `maxChars`). */
export function errorNote(e: RunError, maxChars = 20_000, more?: SafeHtml | string): SafeHtml {
  const where = e.line ? ` at line ${e.line}${e.column ? `, column ${e.column}` : ''}` : '';
  return html`<div class="sb-error" role="note"><div class="sb-error-head"><span class="sb-badge sb-bad">${String(e.type).slice(0, 100)}</span>${where}</div>
<div class="sb-error-msg">${clipText(e.message, maxChars, more)}</div>
${e.hint ? html`<div class="sb-hint"><b>Hint:</b> ${clipText(e.hint, maxChars, more)}</div>` : ''}
${e.violations?.length ? html`<ul class="sb-violations">${e.violations.slice(0, 50).map((v) => html`<li>line ${v.line}, col ${v.column}: ${v.message} — ${v.hint}</li>`)}</ul>` : ''}</div>`;
}

/**
 * Code with syntax highlighting and line numbers; the lines where the run failed (the error's
 * line, or each policy violation's) are marked, with the error and its hint right under the line.
 * Code past `limits.codeChars` characters or `limits.codeLines` lines is not shown (a note says how
 * much, and `more` gives the way to the full text).
 * @example renderCode('1 +', { type: 'SYNTAX_ERROR', message: '…', line: 1 })
 */
export function renderCode(
  code: string,
  error?: RunError,
  limits: { codeChars: number; codeLines: number; messageChars: number } = {
    codeChars: 200_000,
    codeLines: SHOW_MAX_LINES,
    messageChars: 20_000,
  },
  more?: SafeHtml | string,
): SafeHtml {
  // cut before highlighting: highlight.js over megabytes of one line is slow and the page huge
  const cutChars = code.length > limits.codeChars ? code.length - limits.codeChars : 0;
  const lines = highlightLines(cutChars ? code.slice(0, limits.codeChars) : code);
  const SHOW_MAX_LINES = limits.codeLines;
  const marked = new Set<number>();
  if (error?.line) marked.add(error.line);
  for (const v of error?.violations ?? []) marked.add(v.line);
  const noteAt = error?.line ?? error?.violations?.[0]?.line;
  const shown = lines.slice(0, SHOW_MAX_LINES);
  const rows = shown.map((markup, i) => {
    const n = i + 1;
    const bad = marked.has(n);
    const row = html`<div class="sb-ln${bad ? ' sb-err-line' : ''}" data-line="${n}"><span class="sb-no" aria-hidden="true">${n}</span><code>${trusted(markup || ' ')}</code></div>`;
    return n === noteAt && error ? html`${row}${errorNote(error, limits.messageChars)}` : row;
  });
  const left = [
    lines.length > shown.length && `${lines.length - shown.length} more lines`,
    cutChars && `${cutChars.toLocaleString('en-US')} more characters`,
  ].filter(Boolean);
  const moreNote = left.length
    ? html`<div class="sb-more">… ${left.join(' and ')} not shown${more ? html`; ${more}` : ''}</div>`
    : '';
  // an error whose line is past the code (or missing) is shown after the code
  const tail = error && (!noteAt || noteAt > shown.length) ? errorNote(error, limits.messageChars) : '';
  return html`<div class="sb-code hljs">${rows}${moreNote}</div>${tail}`;
}
