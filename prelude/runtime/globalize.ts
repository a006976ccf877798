/**
 * Session persistence for top-level declarations. Indirect eval scopes `const`/`let`/`class` to the
 * one eval call (only `var` and functions become globals), so a session could not reuse
 * `const t = ...` in its next run. Before evaluating, top-level `const`/`let` become `var`
 * (padded to keep every column in place) and a top-level class is also assigned to globalThis.
 * Re-running `const x = ...` in a later run therefore replaces x instead of throwing. A top-level
 * loop that calls nothing runs over block-scoped copies of those globals (localLoops.ts).
 */
import { parse } from 'acorn';
import { localLoops } from './localLoops.js';

interface Node {
  type: string;
  start: number;
  end: number;
  kind?: string;
  id?: { name: string } | null;
}

const MAY_DECLARE = /const|let|class|for|while|do|\\/;

/**
 * Rewrites top-level lexical declarations of a script; returns the code unchanged when it does not
 * parse (the eval then reports the SyntaxError).
 * @example globalize('const a = 1;\nlet b = 2;') // 'var   a = 1;\nvar b = 2;'
 */
export function globalize(code: string): string {
  // no parse when there can be no declaration and no loop (the trivial run's path): each needs
  // one of these words spelled out (a keyword cannot be written with \u escapes)
  if (!MAY_DECLARE.test(code)) return code;
  let body: Node[];
  try {
    body = (parse(code, { ecmaVersion: 'latest', sourceType: 'script' }) as unknown as { body: Node[] }).body;
  } catch {
    return code;
  }
  // edits at offsets of the original code, applied in order (a loop's closing and the next
  // loop's opening may share an offset: the closing comes first)
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const node of body) {
    if (node.type === 'VariableDeclaration' && (node.kind === 'const' || node.kind === 'let')) {
      edits.push({ start: node.start, end: node.start + node.kind.length, text: node.kind === 'const' ? 'var  ' : 'var' });
    } else if (node.type === 'ClassDeclaration' && node.id) {
      edits.push({ start: node.end, end: node.end, text: `;globalThis[${JSON.stringify(node.id.name)}]=${node.id.name};` });
    }
  }
  for (const ins of localLoops(code, body as never)) edits.push({ start: ins.at, end: ins.at, text: ins.text });
  if (!edits.length) return code;
  const order = edits.map((e, i) => i).sort((a, b) => edits[a].start - edits[b].start || a - b);
  let out = '';
  let at = 0;
  for (const i of order) {
    const e = edits[i];
    out += code.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + code.slice(at);
}
