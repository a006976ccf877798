import type { PresetName } from '../../../schema/limits.js';
import type { RunError } from '../../../schema/errors.js';
import { inspectCode, rulesFor } from '../../policy/index.js';
import { prepareCode, type PreparedCode } from './transform.js';
import { withRunForm } from './runForm.js';

/** The outcome of checking a program: ready to evaluate, or refused with the error the caller sees. */
export type CheckedCode = { ok: true; prepared: PreparedCode } | { ok: false; error: RunError };

/**
 * Everything decided about a program before an engine evaluates it, from ONE parse: the policy
 * check (syntax errors, Python sent by mistake, denylisted constructs) and the notebook transform
 * (transform.ts) share acorn's program; the prepared code's function form (runForm.ts) is a second
 * parse, of the prepared text, which the isolate then need not make. Pure and engine-neutral: any engine behind the session
 * contract evaluates `prepared`. Runs where the code runs (codeChecker.ts), inside its deadline.
 * Never throws for a string: a failure is a SYNTAX_ERROR or POLICY_VIOLATION error.
 * @param source - the program, BOM already removed (precheck.ts).
 * @example
 * checkAndPrepare('const n = award_data.numRows(); n', 'standard');
 * // { ok: true, prepared: { code: 'var   n = award_data.numRows(); n', async: false, lineOffset: 0, resultName: false,
 * //   form: { text: '(function(){let $sbtValue;\n;0,   n = award_data.numRows(); …\nreturn $sbtValue})', declare: 'var n;' } } }
 */
export function checkAndPrepare(source: string, preset: PresetName): CheckedCode {
  const { check, program } = inspectCode(source, rulesFor(preset));
  if (check.ok) return { ok: true, prepared: withRunForm(prepareCode(source, program)) };
  if (check.type === 'SYNTAX_ERROR') {
    const s = check.syntaxError;
    return {
      ok: false,
      error: {
        type: 'SYNTAX_ERROR',
        message: s.message,
        line: s.line,
        column: s.column,
        snippet: s.snippet,
        hint: s.hint,
      },
    };
  }
  const first = check.violations[0]!;
  const more = check.violations.length > 1 ? ` (and ${check.violations.length - 1} more: see violations)` : '';
  return {
    ok: false,
    error: {
      type: 'POLICY_VIOLATION',
      message: first.message + more,
      line: first.line,
      column: first.column,
      snippet: first.snippet,
      hint: first.hint,
      violations: check.violations,
    },
  };
}
