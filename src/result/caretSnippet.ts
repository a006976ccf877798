/** The line `line` (1-based) of `code` with a caret under `column` (1-based). */
export function caretSnippet(code: string, line: number | undefined, column: number | undefined): string | undefined {
  if (!line || line < 1) return undefined;
  const text = code.split(/\r\n|\r|\n/)[line - 1];
  if (text === undefined) return undefined;
  const shown = text.length > 160 ? text.slice(0, 160) + '…' : text;
  const col = Math.max(1, Math.min(column ?? 1, shown.length + 1));
  return `${line} | ${shown}\n${' '.repeat(String(line).length)} | ${' '.repeat(col - 1)}^`;
}
