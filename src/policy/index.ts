// The policy layer: acorn parse + denylist -> violations, as pure functions. Plain re-exports.
export { checkCode, inspectCode } from './checkCode.js';
export { rulesFor, isIssuedRuleSet } from './rulesFor.js';
export { RULES } from './rules.js';
export { toRunError } from './toRunError.js';
export { collectColumnNames, namedColumns } from './collectColumnNames.js';
export { parseProgram, parseExpression, PARSE_OPTIONS, type ParseOutcome, type ParseFailure } from './parse.js';
export { detectPython, type PythonDetection } from './detectPython.js';
export { pythonHint } from './pythonHint.js';
export { caretSnippet } from './snippet.js';
export { MAX_VIOLATIONS } from './findViolations.js';
export type { CheckResult, Rule, RuleId, RuleSet, Matcher, SyntaxErrorInfo } from './types.js';
