import { FUNCTION_NODES, type AnyNode } from './patternNames.js';

/**
 * What the row rewrites (rowLoops.ts, rowChains.ts) share: the walk that proves a row is only read
 * field by field, and the fields it reads.
 */

/** Keys under which a child is the target of a write, per parent type. */
const WRITE_KEYS: Record<string, string> = {
  AssignmentExpression: 'left',
  UpdateExpression: 'argument',
  ForInStatement: 'left',
  ForOfStatement: 'left',
  AssignmentPattern: 'left',
  RestElement: 'argument',
  ArrayPattern: 'elements',
};
/** Nodes whose non-computed `key` is a name, not a variable. */
const KEYED = new Set(['Property', 'PropertyDefinition', 'MethodDefinition']);
/** Keys under which a member expression is called or tagged (its object becomes `this`), per parent type. */
const CALL_KEYS: Record<string, string> = {
  CallExpression: 'callee',
  NewExpression: 'callee',
  TaggedTemplateExpression: 'tag',
};

/**
 * The fields `body` reads of the row named `name`: one walk, undefined at the first use of `name` other
 * than a field read for its value (see rowLoopReads in rowLoops.ts for the list).
 * @example
 * bodyReads(parse('s += r.x + r["y z"]').body[0], 'r') // ['x', 'y z']
 */
export function bodyReads(body: AnyNode, name: string): string[] | undefined {
  const reads = new Set<string>();
  const up = new Map<AnyNode, [AnyNode, string]>();
  // [node, inside a function]
  const stack: [AnyNode, boolean][] = [[body, false]];
  while (stack.length > 0) {
    const [node, inFn] = stack.pop()!;
    const type = node.type as string;
    if (type === 'WithStatement') return undefined;
    if (type === 'Identifier') {
      if (node.name === 'eval') return undefined;
      if (node.name !== name) continue;
      // every other use (a declaration, a parameter, `{ r }`, `f(r)`, `r[k]`...) keeps the loop
      const [parent, key] = up.get(node) ?? [null, ''];
      const field = parent && key === 'object' && !inFn ? fieldOf(parent) : undefined;
      if (field === undefined || !isPlainRead(parent!, up)) return undefined;
      reads.add(field);
      continue;
    }
    const childInFn = inFn || FUNCTION_NODES.has(type);
    for (const k in node) {
      if (k === 'type' || k === 'start' || k === 'end' || k === 'loc') continue;
      const v = node[k];
      if (v === null || typeof v !== 'object') continue;
      // names that are not variables: `o.r`, `{ r: 1 }`, labels
      if (k === 'property' && type === 'MemberExpression' && !node.computed) continue;
      if (k === 'key' && !node.computed && KEYED.has(type)) continue;
      if (k === 'label') continue;
      const children: unknown[] = Array.isArray(v) ? v : [v];
      for (let i = children.length - 1; i >= 0; i--) {
        const c = children[i] as AnyNode | null;
        if (!c || typeof c.type !== 'string') continue;
        up.set(c, [node, k]);
        stack.push([c, childInFn]);
      }
    }
  }
  return [...reads];
}

/** The field `member` reads (`r.name`, `r['literal']`, `r[0]`), or undefined for a computed key. */
function fieldOf(member: AnyNode): string | undefined {
  if (member.type !== 'MemberExpression') return undefined;
  let field: string | undefined;
  if (!member.computed && member.property.type === 'Identifier') field = member.property.name;
  else if (member.computed && member.property.type === 'Literal') {
    const v = member.property.value;
    if (typeof v === 'string' || typeof v === 'number') field = String(v);
  }
  // a field named __proto__ would set the reused row's prototype
  return field === '__proto__' ? undefined : field;
}

/**
 * Whether the member expression `member` (`r.x`) is used for its value only: not written, deleted,
 * called or tagged through (`up`: each node's parent and the key it sits under).
 * @example
 * isPlainRead(memberOf('n = t.length'), up) // true; for `t.length = 0` false
 */
export function isPlainRead(member: AnyNode, up: Map<AnyNode, [AnyNode, string]>): boolean {
  let at = up.get(member);
  // `(r?.x)`: the chain as a whole is what its holder uses
  if (at && at[0].type === 'ChainExpression') at = up.get(at[0]);
  if (!at) return true;
  const [p, k] = at;
  if (WRITE_KEYS[p.type] === k || CALL_KEYS[p.type] === k) return false;
  if (p.type === 'UnaryExpression' && p.operator === 'delete') return false;
  // `({ a: r.x } = o)`: a destructuring target
  if (p.type === 'Property' && k === 'value') return up.get(p)?.[0].type !== 'ObjectPattern';
  return true;
}
