import type { PresetName } from '../../../schema/limits.js';
import { checkCode } from '../../../src/policy/index.js';

/** The rule ids a program hits, in order; ['SYNTAX_ERROR: ...'] when it does not parse (so a failing test says why). */
export function hits(code: string, preset: PresetName = 'standard'): string[] {
  const result = checkCode(code, preset);
  if (result.ok) return [];
  if (result.type === 'SYNTAX_ERROR') return [`SYNTAX_ERROR: ${result.syntaxError.message}`];
  return result.violations.map((v) => v.rule);
}

/** Substitute NAME in each template; HEAD and TAIL are its first three characters and the rest (to split it in two). */
export const fill = (templates: readonly string[], name: string): string[] =>
  templates.map((t) =>
    t.replaceAll('NAME', name).replaceAll('HEAD', name.slice(0, 3)).replaceAll('TAIL', name.slice(3)),
  );

/** `\uXXXX` for the first character: the same identifier to the parser, different text to a regex. */
export const escapeFirst = (name: string): string =>
  `\\u${name.charCodeAt(0).toString(16).padStart(4, '0')}${name.slice(1)}`;
