import * as acorn from 'acorn';

/**
 * How user code is parsed: the latest ECMAScript, as a script (the runtime evaluates it with
 * global-script semantics), with top-level `await` and `return` (agent frameworks send function
 * bodies). import/export are parsed everywhere only so that they can be reported as policy
 * violations with a hint instead of a bare syntax error; they never reach the isolate.
 */
export const PARSE_OPTIONS: acorn.Options = Object.freeze({
  ecmaVersion: 'latest',
  sourceType: 'script',
  allowAwaitOutsideFunction: true,
  allowReturnOutsideFunction: true,
  allowImportExportEverywhere: true,
  allowHashBang: true,
  locations: true,
});

/** Where and why acorn rejected the code. `line` is 1-based, `column` 0-based (acorn's own). */
export interface ParseFailure {
  ok: false;
  /** 'syntax': the code is not JavaScript; 'too-deep': the parser ran out of stack. */
  kind: 'syntax' | 'too-deep';
  /** acorn's message without its trailing "(line:col)". */
  message: string;
  pos: number;
  line: number;
  column: number;
}

export type ParseOutcome = { ok: true; program: acorn.Program } | ParseFailure;

/**
 * Parse user code once. Never throws for any string: syntax errors and stack exhaustion on
 * pathologically nested input come back as a `ParseFailure`.
 * @throws only for non-string input (a caller error).
 * @example
 * const parsed = parseProgram("value_counts(award_data, 'Agency')");
 * if (parsed.ok) parsed.program.body.length; // 1
 */
export function parseProgram(code: string): ParseOutcome {
  if (typeof code !== 'string') throw new TypeError(`Expected \`code\` to be a string, got \`${typeof code}\``);
  try {
    return { ok: true, program: acorn.parse(code, PARSE_OPTIONS) };
  } catch (error) {
    return toFailure(error);
  }
}

/**
 * Parse a whole string as one expression (used for Arquero expression strings such as
 * `'d => d.Agency'`). Returns null unless the entire string is a single expression.
 */
export function parseExpression(source: string): acorn.Expression | null {
  try {
    const expr = acorn.parseExpressionAt(source, 0, PARSE_OPTIONS);
    return source.slice(expr.end).trim() === '' ? expr : null;
  } catch {
    return null;
  }
}

function toFailure(error: unknown): ParseFailure {
  if (error instanceof SyntaxError && 'pos' in error) {
    const e = error as SyntaxError & { pos: number; loc?: acorn.Position };
    const message = e.message.replace(/ \(\d+:\d+\)$/, '');
    return {
      ok: false,
      // acorn turns its own stack overflow into this SyntaxError; the code may well be valid
      kind: /^Not enough stack space/.test(message) ? 'too-deep' : 'syntax',
      message,
      pos: e.pos,
      line: e.loc?.line ?? 1,
      column: e.loc?.column ?? 0,
    };
  }
  // Stack exhausted on nested input: fail closed. Anything else unexpected is reported as a
  // syntax error at the start, never passed through unchecked.
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, kind: error instanceof RangeError ? 'too-deep' : 'syntax', message, pos: 0, line: 1, column: 0 };
}
