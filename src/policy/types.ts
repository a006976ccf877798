import type { PresetName } from '../../schema/limits.js';
import type { Violation } from '../../schema/errors.js';

/**
 * Identifiers of the denylist rules. Stable: they appear in results (`Violation.rule`) and in
 * docs/security.md, one row each.
 */
export type RuleId =
  | 'no-import'
  | 'no-module-globals'
  | 'no-host-globals'
  | 'no-dynamic-code'
  | 'no-prototype-access'
  | 'no-caller-callee'
  | 'no-with'
  | 'no-debugger'
  | 'no-wasm-threads'
  | 'no-stack-trace-hooks'
  | 'no-io'
  | 'nesting-too-deep'
  | 'no-reflection'
  | 'no-arguments-object'
  | 'no-loose-this'
  | 'no-internals';

/**
 * What a rule matches in the AST.
 * - `identifier`: a reference or binding of one of `names` (never a property name, object key or label).
 * - `property`: member access with one of `names` as its key, written `a.b`, `a['b']`, ``a[`b`]``,
 *   `a?.b`, a destructuring key, a key folded from literals (`'constr' + 'uctor'`), or the key
 *   argument of `Reflect.get/set/has/...` and `Object.defineProperty/getOwnPropertyDescriptor`.
 *   `access: 'write'` matches only assignments, updates and defines; `objectKeys` also matches
 *   non-computed keys of object literals (as in `Object.assign(Error, { prepareStackTrace })`).
 * - `node`: a syntax form, by ESTree node type (`WithStatement`, `ImportExpression`, ...).
 * - `this`: `this` that is the global object (`top`) or may be it in sloppy mode (`loose`).
 * - `timer-string`: `setTimeout`/`setInterval`/`setImmediate` called with a string (eval by another name).
 * - `prefix`: a variable (reference or binding) or an accessed property key (as `property` reads
 *   them) whose name starts with `prefix`.
 */
export type Matcher =
  | { readonly on: 'identifier'; readonly names: readonly string[] }
  | {
      readonly on: 'property';
      readonly names: readonly string[];
      readonly access: 'any' | 'write';
      readonly objectKeys?: boolean;
    }
  | { readonly on: 'node'; readonly types: readonly string[] }
  | { readonly on: 'this'; readonly scope: 'top' | 'loose' }
  | { readonly on: 'timer-string'; readonly names: readonly string[] }
  | { readonly on: 'prefix'; readonly prefix: string };

/** One row of the denylist. The table is data: see `RULES` and docs/security.md. */
export interface Rule {
  readonly id: RuleId;
  /** Headline of the message; `{name}` is replaced by the matched name. */
  readonly what: string;
  readonly match: readonly Matcher[];
  /** Why the rule exists (for docs and reviewers; not shown to the guest). */
  readonly reason: string;
  /** What to do instead, written for the LLM that must fix its code. */
  readonly hint: string;
  /** Presets that enforce the rule. Presets only tighten: permissive ⊆ standard ⊆ strict. */
  readonly presets: readonly PresetName[];
}

/** The frozen rules of one preset, as returned by `rulesFor`. Not constructible by hand. */
export interface RuleSet {
  readonly preset: PresetName;
  readonly rules: readonly Rule[];
}

/** A syntax error, located for the user: `line` and `column` are both 1-based. */
export interface SyntaxErrorInfo {
  message: string;
  line: number;
  column: number;
  /** The offending line with a `^` under the column. */
  snippet: string;
  hint: string;
  /** True when the code looks like Python rather than broken JavaScript. */
  python: boolean;
}

/**
 * The result of `checkCode`. `type` is the error type of schema/errors.ts the runtime reports:
 * a syntax error (the code does not parse, maybe because it is Python) or policy violations
 * (it parses, and uses something on the denylist; every violation is listed).
 */
export type CheckResult =
  | { ok: true }
  | { ok: false; type: 'SYNTAX_ERROR'; syntaxError: SyntaxErrorInfo }
  | { ok: false; type: 'POLICY_VIOLATION'; violations: Violation[] };
