import type * as acorn from 'acorn';
import type { Violation } from '../../schema/errors.js';
import { caretSnippet } from './snippet.js';
import type { Rule } from './types.js';

/** One match of a rule during the walk, before it is located and worded. */
export interface Finding {
  rule: Rule;
  /** The matched name (`eval`, `constructor`, `with`, `import.meta`, ...). */
  name: string;
  /** The node to point at. */
  at: acorn.Node;
  /** The name is declared (`const self = 1`), not just used. */
  binding?: boolean;
  /** Replaces the rule's headline (for matches that read badly as `{name}`). */
  what?: string;
  /** Replaces the rule's hint (e.g. the module-specific hint of `require('fs')`). */
  hint?: string;
  /** Found inside an Arquero expression string such as `'d => d.constructor'`. */
  embedded?: boolean;
}

/**
 * Word a finding for the LLM that must fix the code: what failed, where (1-based line and
 * column), what to do instead, e.g.
 * "`require` is not available (line 3, col 5). aq and award_data are already loaded ...".
 * @example
 * toViolation(code, { rule, name: 'require', at: identifierNode }).message;
 */
export function toViolation(code: string, f: Finding): Violation {
  const line = f.at.loc?.start.line ?? 1;
  const column = (f.at.loc?.start.column ?? 0) + 1;
  const where = `${f.embedded ? ' in an expression string' : ''} (line ${line}, col ${column})`;
  let what = f.what ?? f.rule.what.replaceAll('{name}', f.name);
  let hint = f.hint ?? f.rule.hint;
  if (f.binding) {
    what = `\`${f.name}\` may not be used as a variable name`;
    hint = `Rename it, e.g. \`${f.name}_\`.`;
  }
  return {
    rule: f.rule.id,
    message: `${what}${where}. ${hint}`,
    line,
    column,
    snippet: caretSnippet(code, line, column),
    hint,
  };
}
