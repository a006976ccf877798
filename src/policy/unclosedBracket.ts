import { locate } from './snippet.js';

const CLOSER: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };
const MAX_SCAN = 200_000;

/**
 * The innermost bracket still open at `pos`, skipping strings, template literals and comments
 * (a rough scan: regex literals may confuse it, so its answer only feeds a hint). Undefined when
 * every bracket is closed or the scan gives up on very long code.
 * @example
 * unclosedBracket('f(a\nprint(1)', 4); // { char: '(', line: 1, column: 2 }
 */
export function unclosedBracket(code: string, pos: number): { char: string; line: number; column: number } | undefined {
  if (pos > MAX_SCAN) return undefined;
  const open: number[] = [];
  for (let i = 0; i < pos; i++) {
    const c = code[i]!;
    if (c === '"' || c === "'" || c === '`') {
      // skip to the closing quote (backslash escapes honoured); an unterminated one ends the scan
      for (i++; i < pos && code[i] !== c; i++) if (code[i] === '\\') i++;
    } else if (c === '/' && code[i + 1] === '/') {
      while (i < pos && code[i] !== '\n') i++;
    } else if (c === '/' && code[i + 1] === '*') {
      const end = code.indexOf('*/', i + 2);
      i = end === -1 ? pos : end + 1;
    } else if (c in CLOSER) {
      open.push(i);
    } else if (c === ')' || c === ']' || c === '}') {
      if (open.length > 0 && CLOSER[code[open[open.length - 1]!]!] === c) open.pop();
      else return undefined; // mismatched: some other mistake, do not guess
    }
  }
  const at = open[open.length - 1];
  return at === undefined ? undefined : { char: code[at]!, ...locate(code, at) };
}
