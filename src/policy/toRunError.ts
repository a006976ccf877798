import type { RunError } from '../../schema/errors.js';
import type { CheckResult } from './types.js';

/**
 * The RunError (schema/errors.ts) for a failed check, as the runtime reports it: SYNTAX_ERROR
 * with its location, snippet and hint, or POLICY_VIOLATION whose message, location and hint are
 * the first violation's and whose `violations` lists them all.
 * @example
 * const checked = checkCode(code, rulesFor(preset));
 * if (!checked.ok) return { ok: false, error: toRunError(checked), ... };
 */
export function toRunError(result: Exclude<CheckResult, { ok: true }>): RunError {
  if (result.type === 'SYNTAX_ERROR') {
    const { message, line, column, snippet, hint } = result.syntaxError;
    return { type: 'SYNTAX_ERROR', message, line, column, snippet, hint };
  }
  const [first, ...rest] = result.violations;
  const more =
    rest.length === 0
      ? ''
      : ` (${rest.length} more ${rest.length === 1 ? 'violation' : 'violations'} in \`violations\`)`;
  return {
    type: 'POLICY_VIOLATION',
    message: `${first?.message ?? 'The code breaks the sandbox policy.'}${more}`,
    line: first?.line,
    column: first?.column,
    snippet: first?.snippet,
    hint: first?.hint,
    violations: result.violations,
  };
}
