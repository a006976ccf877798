/**
 * Session persistence for top-level declarations. Indirect eval scopes `const`/`let`/`class` to the
 * one eval call (only `var` and functions become globals), so a session could not reuse
 * `const t = ...` in its next run. Before evaluating, top-level `const`/`let` become `var`
 * (padded to keep every column in place) and a top-level class is also assigned to globalThis.
 * Re-running `const x = ...` in a later run therefore replaces x instead of throwing.
 */
import { parse } from 'acorn';

interface Node {
  type: string;
  start: number;
  end: number;
  kind?: string;
  id?: { name: string } | null;
}

const MAY_DECLARE = /const|let|class|\\/;

/**
 * Rewrites top-level lexical declarations of a script; returns the code unchanged when it does not
 * parse (the eval then reports the SyntaxError).
 * @example globalize('const a = 1;\nlet b = 2;') // 'var   a = 1;\nvar b = 2;'
 */
export function globalize(code: string): string {
  // no parse when no declaration can be there (the trivial run's path): a lexical declaration or a
  // class needs one of these words spelled out (a keyword cannot be written with \u escapes)
  if (!MAY_DECLARE.test(code)) return code;
  let body: Node[];
  try {
    body = (parse(code, { ecmaVersion: 'latest', sourceType: 'script' }) as unknown as { body: Node[] }).body;
  } catch {
    return code;
  }
  let out = '';
  let at = 0;
  for (const node of body) {
    if (node.type === 'VariableDeclaration' && (node.kind === 'const' || node.kind === 'let')) {
      out += code.slice(at, node.start) + (node.kind === 'const' ? 'var  ' : 'var');
      at = node.start + node.kind.length;
    } else if (node.type === 'ClassDeclaration' && node.id) {
      out += code.slice(at, node.end) + `;globalThis[${JSON.stringify(node.id.name)}]=${node.id.name};`;
      at = node.end;
    }
  }
  return at === 0 ? code : out + code.slice(at);
}
