import { html, type SafeHtml } from './html.js';

/** Most characters of one text output (stdout, value, message) shown on a page. */
export const SHOW_MAX_CHARS = 1_000_000;

/**
 * Text cut to `max` characters for display, with a visible note of what was left out, so a
 * 10 MB string from the log cannot make a page of 10 MB.
 * @example clipText('x'.repeat(10), 4) // 'xxxx' + a '… 6 more characters not shown' note
 */
export function clipText(text: string, max = SHOW_MAX_CHARS): SafeHtml {
  if (text.length <= max) return html`${text}`;
  return html`${text.slice(0, max)}<span class="sb-more">… ${(text.length - max).toLocaleString('en-US')} more characters not shown</span>`;
}
