import { SbirtoolsValidationError } from '../core/errors.js';
import { sandboxGlobalNames } from '../runtime/engines/sandboxGlobals.js';

/** Longest table name accepted (characters). */
export const MAX_TABLE_NAME_LENGTH = 64;

/** Words that cannot name a binding in strict-mode code, or that mean something else there. */
const RESERVED_WORDS = new Set(
  (
    'await break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null ' +
    'return super switch this throw true try typeof var void while with yield let static implements interface package private protected public arguments eval async of get set'
  ).split(' '),
);

/** ECMAScript IdentifierName: ID_Start or $ or _, then ID_Continue, $, ZWNJ or ZWJ. */
const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

/**
 * Why `name` cannot name a user table, or undefined when it can. A table becomes a global of the
 * same name in every run, so the name must be a JavaScript identifier, at most
 * MAX_TABLE_NAME_LENGTH characters, not a reserved word, and must shadow nothing the sandbox
 * provides (sandboxGlobalNames(): award_data, aq, every prelude helper, built-ins such as Object,
 * Math, JSON, and Object.prototype's names).
 * @example tableNameProblem('Math') // 'it is a JavaScript built-in of the sandbox'
 */
export function tableNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return `it is a ${name === null ? 'null' : typeof name}, not a string`;
  if (name.length === 0) return 'it is empty';
  if (name.length > MAX_TABLE_NAME_LENGTH)
    return `it is ${name.length} characters long, over the ${MAX_TABLE_NAME_LENGTH}-character limit`;
  if (!IDENTIFIER.test(name))
    return 'it is not a JavaScript identifier (letters, digits, _ or $, not starting with a digit)';
  if (RESERVED_WORDS.has(name)) return 'it is a JavaScript reserved word';
  const globals = sandboxGlobalNames();
  if (name === 'award_data' || name === 'tables') return `it would hide the sandbox's own \`${name}\``;
  if (globals.builtins.has(name)) return 'it is a JavaScript built-in of the sandbox';
  if (globals.all.has(name)) return 'it is a global the prelude defines (see docs/prelude.md)';
  return undefined;
}

/**
 * Throw when `name` cannot name a user table (tableNameProblem). The message names the table (its
 * control characters escaped), the rule it breaks and how to fix it.
 * @throws {SbirtoolsValidationError}
 * @example checkTableName('portfolio'); // ok
 */
export function checkTableName(name: unknown, where = '`tables`'): asserts name is string {
  const problem = tableNameProblem(name);
  if (problem === undefined) return;
  throw new SbirtoolsValidationError(
    `Invalid table name \`${printable(name)}\` in ${where}: ${problem}. A table name must be a JavaScript identifier of at most ${MAX_TABLE_NAME_LENGTH} characters that is not a reserved word and shadows nothing the sandbox provides (award_data, aq, tables, the prelude's helpers such as print or merge, built-ins such as Object, Math or JSON). Rename it, e.g. \`my_${suggestion(name)}\`.`,
  );
}

/** The name for a message: control and non-ASCII-space characters escaped, cut at 80 characters. */
function printable(name: unknown): string {
  const s = String(name);
  const cut = s.length > 80 ? `${s.slice(0, 80)}…` : s;
  return cut.replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029`]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function suggestion(name: unknown): string {
  const s = String(name)
    .replace(/[^A-Za-z0-9_$]+/g, '_')
    .slice(0, 40)
    .toLowerCase();
  return s && s !== '_' ? s : 'table';
}
