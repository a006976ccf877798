import type { Limits, PresetName } from '../../schema/limits.js';
import type { RunResult } from '../../schema/result.js';
import { checkCode, rulesFor } from '../policy/index.js';
import { SbirtoolsValidationError } from './errors.js';

type Checked = { ok: true; code: string } | { ok: false; result: RunResult };

/**
 * Everything decided before an isolate sees the code: type and size, then the policy check
 * (syntax errors, Python sent by mistake, denylisted constructs). Failures are results.
 * @throws {SbirtoolsValidationError} when `code` is not a string (the caller's bug, not the guest's).
 */
export function precheck(code: unknown, limits: Limits, preset: PresetName): Checked {
  if (typeof code !== 'string') {
    throw new SbirtoolsValidationError(`Expected \`code\` to be a string of JavaScript, got \`${code === null ? 'null' : typeof code}\``);
  }
  // A leading BOM is an editor artefact, not code.
  const source = code.charCodeAt(0) === 0xfeff ? code.slice(1) : code;
  const fail = (error: RunResult['error']): Checked => ({ ok: false, result: emptyResult(limits, error) });
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > limits.maxCodeBytes) {
    return fail({
      type: 'POLICY_VIOLATION',
      message: `The code is ${bytes} bytes, over the ${limits.maxCodeBytes}-byte limit (maxCodeBytes).`,
      hint: 'Send shorter code: award_data is already loaded, so no data needs to be pasted into the code; split the work over several runs of a session.',
      violations: [{ rule: 'max-code-bytes', message: `code is ${bytes} bytes`, line: 1, column: 1, snippet: '', hint: 'Send shorter code.' }],
    });
  }
  const checked = checkCode(source, rulesFor(preset));
  if (checked.ok) return { ok: true, code: source };
  if (checked.type === 'SYNTAX_ERROR') {
    const s = checked.syntaxError;
    return fail({ type: 'SYNTAX_ERROR', message: s.message, line: s.line, column: s.column, snippet: s.snippet, hint: s.hint });
  }
  const first = checked.violations[0]!;
  const more = checked.violations.length > 1 ? ` (and ${checked.violations.length - 1} more: see violations)` : '';
  return fail({
    type: 'POLICY_VIOLATION',
    message: first.message + more,
    line: first.line,
    column: first.column,
    snippet: first.snippet,
    hint: first.hint,
    violations: checked.violations,
  });
}

function emptyResult(limits: Limits, error: RunResult['error']): RunResult {
  return {
    ok: false,
    stdout: '',
    stderr: '',
    error,
    stats: { wallMs: 0, cpuMs: 0, heapUsedMb: 0 },
    truncated: { stdout: false, value: false },
    limits,
  };
}
