import { html, type SafeHtml } from './html.js';

/** Most characters of one text output (stdout, value, message) shown on a live page. */
export const SHOW_MAX_CHARS = 100_000;

/**
 * Text cut to `max` characters for display, with a visible note of what was left out (and `more`,
 * the way to the full text, when given), so a 10 MB string from the log cannot make a page of 10 MB.
 * @example clipText('x'.repeat(10), 4) // 'xxxx' + a '… 6 more characters not shown' note
 */
export function clipText(text: string, max = SHOW_MAX_CHARS, more?: SafeHtml | string): SafeHtml {
  if (text.length <= max) return html`${text}`;
  // never cut a surrogate pair in half
  const end = max > 0 && /[\ud800-\udbff]/.test(text[max - 1]!) ? max - 1 : max;
  return html`${text.slice(0, end)}<span class="sb-more">… ${(text.length - end).toLocaleString('en-US')} more characters not shown${more ? html`; ${more}` : ''}</span>`;
}
