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
 * `(a, b) => expr` or `function (a, b) { return expr; }` (not async, not a generator, two distinct
 * plain parameters): the two parameter names and the one expression it returns, else undefined.
 * @example twoParamReturn(parse('(x, y) => x - y')) // { p: 'x', q: 'y', body: <x - y> }
 */
export function twoParamReturn(fn: AnyNode): { p: string; q: string; body: AnyNode } | undefined {
  if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression') return undefined;
  if (fn.async || fn.generator || fn.params.length !== 2) return undefined;
  const [p, q] = fn.params as AnyNode[];
  if (p!.type !== 'Identifier' || q!.type !== 'Identifier' || p!.name === q!.name) return undefined;
  let body = fn.body as AnyNode;
  if (body.type === 'BlockStatement') {
    if (body.body.length !== 1 || body.body[0].type !== 'ReturnStatement' || !body.body[0].argument) return undefined;
    body = body.body[0].argument;
  }
  return { p: p!.name, q: q!.name, body };
}

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

/** Keys of a node that are never children to walk. */
const NOT_CHILDREN = new Set(['type', 'start', 'end', 'loc', 'label']);
const KEYED_NODES: ReadonlySet<string> = new Set(['Property', 'PropertyDefinition', 'MethodDefinition']);

/**
 * The child nodes of `node` in which a variable may be mentioned, in source order: every child but a
 * non-computed property name (`r.total`), a non-computed key (`{ total: 1 }`, a class member) and a
 * label (a shorthand property's value is a child). For walks that look for a name's mentions.
 */
export function variableChildren(node: AnyNode): AnyNode[] {
  const out: AnyNode[] = [];
  for (const key in node) {
    if (NOT_CHILDREN.has(key)) continue;
    const v = node[key];
    if (v === null || typeof v !== 'object') continue;
    if (key === 'property' && node.type === 'MemberExpression' && !node.computed) continue;
    if (key === 'key' && !node.computed && KEYED_NODES.has(node.type)) continue;
    for (const c of (Array.isArray(v) ? v : [v]) as (AnyNode | null)[])
      if (c && typeof c.type === 'string') out.push(c);
  }
  return out;
}
