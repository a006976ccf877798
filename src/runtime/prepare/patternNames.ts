import type * as acorn from 'acorn';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- acorn's nodes carry fields per node type
export type AnyNode = acorn.Node & Record<string, any>;

/** Node types that start a loop: code inside may run many times. */
export const LOOP_NODES: ReadonlySet<string> = new Set([
  'ForStatement',
  'ForInStatement',
  'ForOfStatement',
  'WhileStatement',
  'DoWhileStatement',
]);

/** Node types that open a function or class scope: code inside may run at another time. */
export const FUNCTION_NODES: ReadonlySet<string> = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ClassDeclaration',
  'ClassExpression',
]);

/**
 * Adds the names a binding or assignment target binds to `out`.
 * @example collectPatternNames(parse('({ a, b: [c], ...d } = x)').left, names) // a, c, d
 */
export function collectPatternNames(p: AnyNode | null, out: Set<string> | string[]): void {
  if (!p) return;
  switch (p.type) {
    case 'Identifier':
      if (Array.isArray(out)) out.push(p.name);
      else out.add(p.name);
      break;
    case 'ObjectPattern':
      for (const prop of p.properties)
        collectPatternNames(prop.type === 'RestElement' ? prop.argument : prop.value, out);
      break;
    case 'ArrayPattern':
      for (const el of p.elements) collectPatternNames(el, out);
      break;
    case 'RestElement':
      collectPatternNames(p.argument, out);
      break;
    case 'AssignmentPattern':
      collectPatternNames(p.left, out);
      break;
  }
}
