/** Line terminators exactly as ECMAScript (and acorn) count lines. */
export const LINE_BREAK = /\r\n?|[\n\u2028\u2029]/;

const WINDOW = 60;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/g;

/**
 * The offending line with a `^` under the column, for error messages:
 * ```
 * const x = require('fs')
 *           ^
 * ```
 * Long lines are cut to a window around the column (marked with `…`); control characters and
 * lone surrogates are replaced one for one by `\uFFFD`, so the caret stays aligned and the
 * snippet is always well-formed text. Tabs are kept in the caret line for alignment.
 * @param line - 1-based line.
 * @param column - 1-based column, in UTF-16 code units (as acorn and V8 count).
 * @example
 * caretSnippet('a\nb.Award Amount', 2, 9); // "b.Award Amount\n        ^"
 */
export function caretSnippet(code: string, line: number, column: number): string {
  const text = lineAt(code, line);
  let col = Math.max(0, Math.min(column - 1, text.length));
  let shown = text;
  if (text.length > 2 * WINDOW) {
    const from = Math.max(0, col - WINDOW);
    const to = Math.min(text.length, col + WINDOW);
    shown = (from > 0 ? '…' : '') + text.slice(from, to) + (to < text.length ? '…' : '');
    col = col - from + (from > 0 ? 1 : 0);
  }
  shown = shown.replace(CONTROL, '\uFFFD').replace(LONE_SURROGATE, '\uFFFD').trimEnd();
  const pad = shown.slice(0, col).replace(/[^\t]/g, ' ').padEnd(col, ' ');
  return `${shown}\n${pad}^`;
}

/**
 * The text of a 1-based line ('' past the end), without scanning more of the code than needed.
 * @example
 * lineAt('a\r\nb', 2); // 'b'
 */
export function lineAt(code: string, line: number): string {
  const breaks = new RegExp(LINE_BREAK.source, 'g');
  let start = 0;
  for (let current = 1; current < line; current++) {
    const m = breaks.exec(code);
    if (!m) return '';
    start = m.index + m[0].length;
  }
  breaks.lastIndex = start;
  const end = breaks.exec(code);
  return code.slice(start, end ? end.index : code.length);
}

/**
 * 1-based line and column of a UTF-16 offset, counting line breaks as ECMAScript does.
 * @example
 * locate('ab\ncd', 4); // { line: 2, column: 2 }
 */
export function locate(code: string, offset: number): { line: number; column: number } {
  const breaks = new RegExp(LINE_BREAK.source, 'g');
  let line = 1;
  let start = 0;
  for (let m = breaks.exec(code); m && m.index < offset; m = breaks.exec(code)) {
    line++;
    start = m.index + m[0].length;
  }
  return { line, column: offset - start + 1 };
}
