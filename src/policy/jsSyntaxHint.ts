import type { ParseFailure } from './parse.js';
import { lineAt } from './snippet.js';
import { unclosedBracket } from './unclosedBracket.js';

const WORD = /^[A-Za-z_$][\w$]*/;
const JS_OPERATOR_WORDS = new Set(['in', 'of', 'instanceof', 'typeof', 'new', 'delete', 'void', 'await', 'yield']);
const TYPESCRIPT =
  /^\s*(?:interface|type|enum)\s+\w+\s*(?:=|\{|<)|\b(?:const|let|var)\s+[\w$]+\s*:\s*[\w$<[{]|\)\s*:\s*[\w$]+(?:<[^>]*>)?(?:\[\])?\s*(?:=>|\{)|\bas\s+(?:const|string|number|any|unknown)\b|\bpublic\s+\w+\s*[:(]/;

const AWAIT_HINT = '`await` works at the top level and inside `async` functions: mark the enclosing function `async`.';

/** Rows of (acorn message test, hint) for mistakes that acorn reports plainly. */
const BY_MESSAGE: ReadonlyArray<[RegExp, string]> = [
  [
    /Unterminated string constant/,
    'Close the string with the quote it opened with; for text with quotes or line breaks use a template literal (`...`).',
  ],
  [/Unterminated template/, 'Close the template literal with a backtick (`).'],
  [/Unterminated comment/, 'Close the comment with `*/`.'],
  [
    /has already been declared/,
    'Declare each name once per scope: assign to it without `const`/`let`, or pick a new name (top-level `const` and `let` persist between runs of a session).',
  ],
  [/await.*(?:async|outside)|Cannot use keyword 'await'/, AWAIT_HINT],
  [
    /Invalid regular expression/,
    'Fix the regular expression, or match with string methods such as `includes` or `startsWith`.',
  ],
  [
    /Escape sequence in keyword|Keyword must not contain escaped characters/,
    'Write keywords without escape sequences.',
  ],
];

/**
 * A hint for a JavaScript syntax error, recognising the mistakes LLMs make most: `d.Award Amount`
 * (a column name with spaces), TypeScript annotations, curly quotes, a Markdown fence, code
 * that ends early, and the messages in `BY_MESSAGE`.
 * @example
 * jsSyntaxHint('d.Award Amount > 1', failure); // "A column name with spaces needs brackets: write `d['Award Amount']` ..."
 */
export function jsSyntaxHint(code: string, failure: ParseFailure): string {
  return (
    spacedColumn(code, failure.pos) ??
    (/^\s*```/.test(code) ? FENCE_HINT : undefined) ??
    (/[\u2018\u2019\u201C\u201D]/.test(code.charAt(failure.pos))
      ? 'Replace curly quotes (‘ ’ “ ”) with straight quotes (\' or ").'
      : undefined) ??
    (TYPESCRIPT.test(lineAt(code, failure.line))
      ? 'This is TypeScript syntax; write plain JavaScript (remove type annotations, `as` casts, `interface` and `type`).'
      : undefined) ??
    BY_MESSAGE.find(([re]) => re.test(failure.message))?.[1] ??
    // inside a non-async function `await` is a plain identifier, so acorn fails on the next token
    (/\bawait\s+$/.test(code.slice(Math.max(0, failure.pos - 50), failure.pos)) ? AWAIT_HINT : undefined) ??
    unclosedBeforeLine(code, failure) ??
    (failure.pos >= code.trimEnd().length
      ? 'The code ends early: close every `(`, `[`, `{`, string and template literal.'
      : undefined) ??
    'Fix the JavaScript syntax at the caret: look for a missing comma, bracket, quote or operator just before it.'
  );
}

/** An error on the first token of a line while a bracket from an earlier line is still open: the bracket was never closed. */
function unclosedBeforeLine(code: string, failure: ParseFailure): string | undefined {
  const line = lineAt(code, failure.line);
  if (failure.column !== line.length - line.trimStart().length && failure.pos < code.trimEnd().length) return undefined;
  const open = unclosedBracket(code, failure.pos);
  if (!open || open.line >= failure.line) return undefined;
  return `The \`${open.char}\` opened at line ${open.line}, col ${open.column} is never closed: close it before line ${failure.line}.`;
}

/** The hint for code wrapped in a Markdown fence. */
export const FENCE_HINT = 'Send only the code, without the Markdown fence lines (```js and ```).';

/**
 * `d.Award Amount > 1` fails at `Amount`: the code before the error ends in `obj.Word ` and a
 * word follows. Rebuild the intended column name from the words up to the next operator.
 */
function spacedColumn(code: string, pos: number): string | undefined {
  const before = /([A-Za-z_$][\w$]*|[)\]])\s*(\??\.)\s*([A-Za-z_$][\w$]*)([ \t]+)$/.exec(
    code.slice(Math.max(0, pos - 200), pos),
  );
  if (!before) return undefined;
  const words = [before[3]!];
  let rest = code.slice(pos, pos + 200);
  for (let m = WORD.exec(rest); m && !JS_OPERATOR_WORDS.has(m[0]); m = WORD.exec(rest)) {
    words.push(m[0]);
    rest = rest.slice(m[0].length);
    const gap = /^[ \t]+(?=[A-Za-z_$0-9])/.exec(rest);
    if (!gap) break;
    rest = rest.slice(gap[0].length);
  }
  if (words.length < 2) return undefined;
  const obj = before[1] === ')' || before[1] === ']' ? '' : before[1];
  const name = words.join(' ');
  const access = before[2] === '?.' ? '?.' : '';
  return `A column name with spaces needs brackets: write \`${obj}${access}['${name}']\`, not \`${obj}${before[2]}${name}\`.`;
}
