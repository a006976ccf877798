import { PRESET_NAMES, type PresetName } from '../../schema/limits.js';
import { describeSyntaxError } from './describeSyntaxError.js';
import { findViolations } from './findViolations.js';
import { FENCE_HINT } from './jsSyntaxHint.js';
import { parseProgram } from './parse.js';
import { ruleIndex } from './ruleIndex.js';
import { isIssuedRuleSet, rulesFor } from './rulesFor.js';
import { caretSnippet, locate } from './snippet.js';
import { toViolation } from './toViolation.js';
import type { Program } from 'acorn';
import type { CheckResult, RuleSet } from './types.js';

/**
 * Check guest code before it reaches the isolate: one parse, one walk, every violation at once.
 * A second layer only: the isolate is the security boundary, and keys computed at run time
 * (`x[k]`) cannot be seen here (docs/security.md lists the known static gaps).
 *
 * Never throws for any string: code that does not parse is a `SYNTAX_ERROR` result (with a
 * Python-specific message when it looks like Python), code the parser cannot handle is a
 * `POLICY_VIOLATION` of `nesting-too-deep`, never a pass.
 * @param code - the guest program (a script; top-level `await` and `return` allowed).
 * @param rules - a rule set from `rulesFor(preset)`, or a preset name.
 * @default rules rulesFor('standard')
 * @throws TypeError when `code` is not a string or `rules` is neither a preset name nor a set
 *   from `rulesFor` (rule sets cannot be built by hand, so no rule can be switched off).
 * @example
 * checkCode("const f = require('fs')");
 * // { ok: false, type: 'POLICY_VIOLATION', violations: [{ rule: 'no-module-globals',
 * //   message: "`require` is not available (line 1, col 11). There are no files, ...", ... }] }
 */
export function checkCode(code: string, rules: RuleSet | PresetName = 'standard'): CheckResult {
  return inspectCode(code, rules).check;
}

/**
 * checkCode, also handing back the parsed program when the code passed, so that a caller who
 * goes on to transform the code (the runtime's notebook transform) does not parse it again.
 * The program is acorn's ESTree with `locations`; treat it as read-only.
 * @throws TypeError as checkCode does.
 * @example
 * const { check, program } = inspectCode('const x = 1; x + 1', 'standard');
 * if (check.ok) program!.body.length; // 2
 */
export function inspectCode(
  code: string,
  rules: RuleSet | PresetName = 'standard',
): { check: CheckResult; program?: Program } {
  if (typeof code !== 'string') throw new TypeError(`Expected \`code\` to be a string, got \`${typeof code}\``);
  const set =
    typeof rules === 'string' && (PRESET_NAMES as readonly string[]).includes(rules) ? rulesFor(rules) : rules;
  if (!isIssuedRuleSet(set)) {
    throw new TypeError(
      `Expected \`rules\` to be a preset name or a rule set from rulesFor(preset), got \`${describe(rules)}\``,
    );
  }
  if (/^\s*```/.test(code)) {
    // a fence is never meant as code, even when the backticks happen to parse (as tagged templates)
    const { line, column } = locate(code, code.search(/\S/));
    const message = `The code starts with a Markdown fence (line ${line}, col ${column}).`;
    const snippet = caretSnippet(code, line, column);
    return {
      check: {
        ok: false,
        type: 'SYNTAX_ERROR',
        syntaxError: { message, line, column, snippet, hint: FENCE_HINT, python: false },
      },
    };
  }
  const parsed = parseProgram(code);
  if (!parsed.ok && parsed.kind === 'syntax')
    return { check: { ok: false, type: 'SYNTAX_ERROR', syntaxError: describeSyntaxError(code, parsed) } };
  try {
    if (parsed.ok) {
      const violations = findViolations(code, parsed.program, set);
      return violations.length === 0
        ? { check: { ok: true }, program: parsed.program }
        : { check: { ok: false, type: 'POLICY_VIOLATION', violations } };
    }
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  // the parser or the walk ran out of stack: reject, never pass unchecked code through
  const rule = ruleIndex(set).tooDeep!;
  const start = parsed.ok ? { line: 1, column: 0 } : { line: parsed.line, column: parsed.column };
  const at = { type: 'Program', start: 0, end: 0, loc: { start, end: start } };
  return { check: { ok: false, type: 'POLICY_VIOLATION', violations: [toViolation(code, { rule, name: '', at })] } };
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  return value === null ? 'null' : typeof value === 'object' ? 'object' : typeof value;
}
