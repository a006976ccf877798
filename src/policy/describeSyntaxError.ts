import { detectPython } from './detectPython.js';
import { jsSyntaxHint } from './jsSyntaxHint.js';
import type { ParseFailure } from './parse.js';
import { pythonHint } from './pythonHint.js';
import { caretSnippet, lineAt } from './snippet.js';
import type { SyntaxErrorInfo } from './types.js';

/**
 * Turn a failed parse into a SYNTAX_ERROR an LLM can act on. When the code looks like Python,
 * the message says the sandbox runs JavaScript and the hint lists the JavaScript equivalents;
 * otherwise it is acorn's message with a hint for the likely mistake. `line` and `column` are
 * 1-based (acorn's column is 0-based and counts UTF-16 code units; we add one).
 * @example
 * describeSyntaxError('for x in y:\n  print(x)', failure).message;
 * // "This sandbox runs JavaScript, not Python: line 1 (`for x in y:`) is Python (line 1, col 1)."
 */
export function describeSyntaxError(code: string, failure: ParseFailure): SyntaxErrorInfo {
  const python = detectPython(code);
  if (python) {
    const text = lineAt(code, python.line).trim();
    const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
    return {
      message: `This sandbox runs JavaScript, not Python: line ${python.line} (\`${shown}\`) is Python (line ${python.line}, col ${python.column}).`,
      line: python.line,
      column: python.column,
      snippet: caretSnippet(code, python.line, python.column),
      hint: pythonHint(code),
      python: true,
    };
  }
  const line = failure.line;
  const column = failure.column + 1;
  return {
    message: `${failure.message} (line ${line}, col ${column}).`,
    line,
    column,
    snippet: caretSnippet(code, line, column),
    hint: jsSyntaxHint(code, failure),
    python: false,
  };
}
