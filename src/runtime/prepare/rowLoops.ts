import { INSERTED_CLOSE, INSERTED_OPEN, ROW_LOOP_GLOBAL } from '../../../schema/rowLoop.js';
import type { LocalEdit } from './localize.js';
import type { AnyNode } from './patternNames.js';

/** The markers' name: a source that contains it (its text could pose as a marker) is left as written. */
const PREFIX = '$sbtRow';
const FUNCTIONS = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ClassDeclaration',
  'ClassExpression',
]);
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
 * The fields a row loop reads, when its row is provably invisible, else undefined. The loop must be
 * `for (const|let r of <expr>.objects())` (no arguments, no `?.`, no `for await`), and its body may use
 * `r` only as `r.name` or `r['literal']` read as a value: not called as a method (`r.f()` passes `r`
 * as `this`), not assigned, updated or deleted, not destructured into, not inside a function, arrow
 * or class (a closure may outlive the iteration), and the body must not declare another `r`, use
 * `with` or name `eval`. Anything else keeps the loop as written.
 * @example
 * rowLoopReads(parse("for (const r of t.objects()) s += r['Award Amount'] || r.x").body[0]) // ['Award Amount', 'x']
 */
export function rowLoopReads(loop: AnyNode): string[] | undefined {
  if (loop.type !== 'ForOfStatement' || loop.await) return undefined;
  const left = loop.left;
  if (left.type !== 'VariableDeclaration' || left.kind === 'var' || left.declarations.length !== 1) return undefined;
  const id = left.declarations[0].id;
  if (id.type !== 'Identifier') return undefined;
  const call = loop.right;
  if (call.type !== 'CallExpression' || call.optional || call.arguments.length !== 0) return undefined;
  const callee = call.callee;
  if (callee.type !== 'MemberExpression' || callee.computed || callee.optional) return undefined;
  if (callee.property.type !== 'Identifier' || callee.property.name !== 'objects') return undefined;
  return bodyReads(loop.body, id.name);
}

/** One walk of the body; undefined at the first use of `name` other than a field read. */
function bodyReads(body: AnyNode, name: string): string[] | undefined {
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
    const childInFn = inFn || FUNCTIONS.has(type);
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

/** Whether the field read `member` (`r.x`) is used for its value only. */
function isPlainRead(member: AnyNode, up: Map<AnyNode, [AnyNode, string]>): boolean {
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

/** The edits that rewrite every qualifying row loop of `program`, or none (see docs/architecture.md). */
export function planRowLoops(program: AnyNode, source: string): LocalEdit[] {
  // no walk when no loop over objects() can be there; none when a name the rewrite uses is taken
  if (!source.includes('objects') || !/\bfor\b/.test(source)) return [];
  if (source.includes(PREFIX) || source.includes(ROW_LOOP_GLOBAL)) return [];
  const loops: AnyNode[] = [];
  const stack: AnyNode[] = [program];
  while (stack.length > 0) {
    const node = stack.pop()!;
    // a name written with escapes (`\u0024sbtRow0`) is not in the source text
    if (node.type === 'Identifier' && (node.name.startsWith(PREFIX) || node.name === ROW_LOOP_GLOBAL)) return [];
    if (node.type === 'ForOfStatement') loops.push(node);
    for (const k in node) {
      if (k === 'type' || k === 'start' || k === 'end' || k === 'loc') continue;
      const v = node[k];
      if (v === null || typeof v !== 'object') continue;
      const children: unknown[] = Array.isArray(v) ? v : [v];
      for (const c of children as (AnyNode | null)[]) if (c && typeof c.type === 'string') stack.push(c);
    }
  }
  const edits: LocalEdit[] = [];
  for (const loop of loops) {
    const reads = rowLoopReads(loop);
    if (!reads) continue;
    // the one argument of objects(): the call stays the loop's iterable, the body is not touched
    const text = `${ROW_LOOP_GLOBAL}.open(${JSON.stringify(reads)})`;
    edits.push({ start: loop.right.end - 1, end: loop.right.end - 1, text: INSERTED_OPEN + text + INSERTED_CLOSE });
  }
  return edits;
}
