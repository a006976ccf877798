import { INSERTED_CLOSE, INSERTED_OPEN, ROW_LOOP_GLOBAL } from '../../../schema/rowLoop.js';
import type { LocalEdit } from './localize.js';
import { type AnyNode, collectPatternNames, FUNCTION_NODES, LOOP_NODES } from './patternNames.js';
import { isBareObjectsCall } from './rowChains.js';

/**
 * A keyed accumulation loop the guest may answer from the columns (prelude/data/keyedLoop.ts): its
 * edits, to apply only when every name of `names` (the object or Map, the arrays an index loop
 * reads) runs as a true local of the run (localize.ts), and the edits to apply otherwise (the loop's
 * own rewrite: a text loop's, a reused row's, or none).
 */
export interface KeyedLoop {
  names: string[];
  edits: LocalEdit[];
  otherwise: LocalEdit[];
}

/** Statements whose completion is never empty: one after the loop makes the loop's completion unseen. */
const VALUED = new Set(['ExpressionStatement', 'IfStatement', 'SwitchStatement', 'TryStatement', ...LOOP_NODES]);
const COMPARE = new Set(['===', '!==', '==', '!=', '<', '<=', '>', '>=']);

type Spec = unknown[];

/** How a loop's body names its values: the field index a node reads, or undefined when it is not a read. */
interface Reads {
  fields: string[];
  field(e: AnyNode): number | undefined;
}

/**
 * The keyed loop `loop` is, or undefined. `loop` must be a statement of the program's top level,
 * with a statement after it that always has a value (its own completion value is then never seen),
 * and one of
 *   for (const|let r of <expr>.objects()) BODY       (fields read as `r.name`, `r['name']`)
 *   for (const|let a of <expr>.array('col')) BODY    (the value `a`)
 *   for (let i = 0; i < xs.length; i++) BODY        (values `ys[i]` of arrays named by top-level declarations)
 * BODY (a statement or a block) is any number of `if (C) continue;`, at most one `const k = KEY;`,
 * then one UPDATE, or `if (C) UPDATE`; UPDATE is `o[KEY] = (o[KEY] || 0) + TERM` on an `o` declared
 * `const|let o = {}` at the top level, or `m.set(KEY, (m.get(KEY) || 0) + TERM)` on an `m` declared
 * `= new Map()` (`??` for `||` too), where both KEYs are written alike; KEY a value or a `+` of values
 * and literals; TERM a number, a value, or `value || number` / `value ?? number`; C values compared
 * with literals, `!`, `&&`, `||`. Nothing else names a variable in the loop, and the object or Map
 * is mentioned nowhere else before the loop (and after it, outside any function): nothing but the
 * loop can write it before the loop ends, and what the loop writes is the guest's to decide. The
 * guest checks the rest as the loop starts (the object's prototype chain, the Map's methods, the
 * columns behind the values).
 * @example
 * keyedLoop(parse("const c = {};\nfor (const r of t.objects()) c[r.A] = (c[r.A] || 0) + 1;\nc").body[1], ...)
 * // { names: ['c'], edits: [an inserted open(["A"], ["keyed"], [spec, c])] }
 */
export function keyedLoop(
  loop: AnyNode,
  program: AnyNode,
  up: Map<AnyNode, [AnyNode, string]>,
  mentions: AnyNode[],
): Omit<KeyedLoop, 'otherwise'> | undefined {
  const body = program.body as AnyNode[];
  const at = body.indexOf(loop);
  if (at < 0 || !body.slice(at + 1).some((s) => VALUED.has(s.type))) return undefined;
  let reads: Reads | undefined;
  let loopNames: string[];
  let bound: string | undefined;
  if (loop.type === 'ForOfStatement') {
    if (loop.await) return undefined;
    const id = declaredName(loop.left, ['const', 'let']);
    if (!id) return undefined;
    loopNames = [id];
    reads = isBareObjectsCall(loop.right) ? rowReads(id) : arrayCall(loop.right) ? valueReads(id) : undefined;
  } else if (loop.type === 'ForStatement') {
    const i = indexLoop(loop);
    if (!i) return undefined;
    loopNames = [i.index];
    bound = i.bound;
    reads = arrayReads(i.index, i.bound);
  } else return undefined;
  if (!reads) return undefined;
  const shape = bodyShape(loop.body, reads, loopNames);
  if (!shape) return undefined;
  const { target, spec } = shape;
  if (loopNames.includes(target) || (bound !== undefined && bound === target)) return undefined;
  if (!freshTarget(target, spec[0] as string, body, at, loop, up, mentions)) return undefined;
  if (spec[0] === 'map' && mentions.some((m) => m.name === 'Map' && declares(m, up))) return undefined;
  const payload = `[${JSON.stringify(spec)}, ${target}]`;
  const ins = (pos: number, text: string): LocalEdit => ({
    start: pos,
    end: pos,
    text: `${INSERTED_OPEN}${text}${INSERTED_CLOSE}`,
  });
  if (loop.type === 'ForStatement') {
    // the arrays by field index; an index loop's names must be true locals too (read twice: here and
    // by the loop), declared before it (read in its place, a name in its dead zone throws where the
    // loop as written would not)
    const names = reads.fields;
    if (names.includes(target) || !names.every((n) => declaredBefore(n, body, at))) return undefined;
    return {
      names: [target, ...names],
      edits: [
        ins(loop.start, `if (!${ROW_LOOP_GLOBAL}.keyed(${JSON.stringify(spec)}, ${target}, [${names.join(', ')}])) `),
      ],
    };
  }
  const right = loop.right as AnyNode;
  const open = `${ROW_LOOP_GLOBAL}.open(${JSON.stringify(reads.fields)}, ["keyed"], ${payload})`;
  // after the argument: `t.array('A',)` parses
  const edit = isBareObjectsCall(right) ? ins(right.end - 1, open) : ins(right.arguments[0].end, `, ${open}`);
  return { names: [target], edits: [edit] };
}

/** Whether a top-level `const|let` among the first `at` statements of `body` declares `name`. */
function declaredBefore(name: string, body: AnyNode[], at: number): boolean {
  const names: string[] = [];
  for (let k = 0; k < at; k++)
    if (body[k].type === 'VariableDeclaration' && body[k].kind !== 'var')
      for (const d of body[k].declarations) collectPatternNames(d.id, names);
  return names.includes(name);
}

/** The one name `left` declares (`const r`, `let r`), of one of `kinds`, or undefined. */
function declaredName(left: AnyNode | null, kinds: string[]): string | undefined {
  if (!left || left.type !== 'VariableDeclaration' || !kinds.includes(left.kind)) return undefined;
  if (left.declarations.length !== 1) return undefined;
  const id = left.declarations[0].id;
  return id.type === 'Identifier' ? (id.name as string) : undefined;
}

/** `<expr>.array('col')`: one string literal argument, no `?.`. */
function arrayCall(call: AnyNode): boolean {
  if (call.type !== 'CallExpression' || call.optional || call.arguments.length !== 1) return false;
  const callee = call.callee as AnyNode;
  if (callee.type !== 'MemberExpression' || callee.computed || callee.optional) return false;
  if (callee.property.type !== 'Identifier' || callee.property.name !== 'array') return false;
  const arg = call.arguments[0] as AnyNode;
  return arg.type === 'Literal' && typeof arg.value === 'string';
}

/** `for (let i = 0; i < xs.length; i++ | ++i | i += 1)`: the index's name and the bounding array's. */
function indexLoop(loop: AnyNode): { index: string; bound: string } | undefined {
  const index = declaredName(loop.init, ['let']);
  if (!index) return undefined;
  const init = loop.init.declarations[0].init as AnyNode | null;
  if (!init || init.type !== 'Literal' || init.value !== 0) return undefined;
  const test = loop.test as AnyNode | null;
  if (!test || test.type !== 'BinaryExpression' || test.operator !== '<') return undefined;
  if (test.left.type !== 'Identifier' || test.left.name !== index) return undefined;
  const len = test.right as AnyNode;
  if (len.type !== 'MemberExpression' || len.computed || len.optional || len.object.type !== 'Identifier')
    return undefined;
  if (len.property.type !== 'Identifier' || len.property.name !== 'length') return undefined;
  const update = loop.update as AnyNode | null;
  const isIndex = (e: AnyNode) => e.type === 'Identifier' && e.name === index;
  const step =
    update &&
    ((update.type === 'UpdateExpression' && update.operator === '++' && isIndex(update.argument)) ||
      (update.type === 'AssignmentExpression' &&
        update.operator === '+=' &&
        isIndex(update.left) &&
        update.right.type === 'Literal' &&
        update.right.value === 1));
  if (!step) return undefined;
  const bound = len.object.name as string;
  return bound === index ? undefined : { index, bound };
}

/** `r.name`, `r['name']` of the row `r` (objects()). */
function rowReads(row: string): Reads {
  const fields: string[] = [];
  return {
    fields,
    field(e) {
      if (e.type !== 'MemberExpression' || e.optional || e.object.type !== 'Identifier' || e.object.name !== row)
        return undefined;
      let name: string | undefined;
      if (!e.computed && e.property.type === 'Identifier') name = e.property.name;
      else if (e.computed && e.property.type === 'Literal' && typeof e.property.value === 'string')
        name = e.property.value;
      // a field named __proto__ would read the row's prototype
      if (name === undefined || name === '__proto__') return undefined;
      const k = fields.indexOf(name);
      return k >= 0 ? k : fields.push(name) - 1;
    },
  };
}

/** The value `a` of a loop over one array. */
function valueReads(value: string): Reads {
  return {
    fields: [value],
    field: (e) => (e.type === 'Identifier' && e.name === value ? 0 : undefined),
  };
}

/** `xs[i]` of an array `xs` named by a variable; the bounding array is field 0. */
function arrayReads(index: string, bound: string): Reads {
  const fields: string[] = [bound];
  return {
    fields,
    field(e) {
      if (e.type !== 'MemberExpression' || !e.computed || e.optional) return undefined;
      if (e.object.type !== 'Identifier' || e.property.type !== 'Identifier' || e.property.name !== index)
        return undefined;
      const name = e.object.name as string;
      if (name === index) return undefined;
      const k = fields.indexOf(name);
      return k >= 0 ? k : fields.push(name) - 1;
    },
  };
}

/** The statements of a loop body (a block's, or the one statement). */
const statements = (s: AnyNode): AnyNode[] => (s.type === 'BlockStatement' ? s.body : [s]);

/** `continue;` or `{ continue; }`, unlabeled. */
function isContinue(s: AnyNode): boolean {
  const list = statements(s);
  return list.length === 1 && list[0].type === 'ContinueStatement' && !list[0].label;
}

/**
 * The body's shape as the guest's spec, `[target kind, op, key, cond, term]`, and the target's name,
 * or undefined when the body is anything else (see keyedLoop).
 */
function bodyShape(body: AnyNode, reads: Reads, taken: string[]): { target: string; spec: Spec } | undefined {
  const list = statements(body);
  const conds: Spec[] = [];
  let key: { name: string; value: Spec } | undefined;
  for (let k = 0; k < list.length - 1; k++) {
    const s = list[k];
    if (s.type === 'IfStatement' && !s.alternate && isContinue(s.consequent) && !key) {
      const c = condition(s.test, reads);
      if (!c) return undefined;
      conds.push(['!', c]);
    } else if (s.type === 'VariableDeclaration' && !key && k === list.length - 2) {
      const name = declaredName(s, ['const', 'let']);
      const init = s.declarations[0].init as AnyNode | null;
      const value = name && init ? keyValue(init, reads) : undefined;
      if (!name || !value || taken.includes(name)) return undefined;
      key = { name, value };
    } else return undefined;
  }
  let last = list[list.length - 1] as AnyNode | undefined;
  if (!last) return undefined;
  if (last.type === 'IfStatement' && !last.alternate) {
    const c = condition(last.test, reads);
    const inner = statements(last.consequent);
    if (!c || inner.length !== 1) return undefined;
    conds.push(c);
    last = inner[0] as AnyNode;
  }
  if (last.type !== 'ExpressionStatement') return undefined;
  const update = updateOf(last.expression, reads, key);
  if (!update || (key && update.target === key.name) || taken.includes(update.target)) return undefined;
  let cond: Spec | null = null;
  for (const c of conds) cond = cond === null ? c : ['L', '&&', cond, c];
  return { target: update.target, spec: [update.kind, update.op, update.key, cond, update.term] };
}

/** `o[KEY] = (o[KEY] || 0) + TERM` or `m.set(KEY, (m.get(KEY) || 0) + TERM)`. */
function updateOf(
  e: AnyNode,
  reads: Reads,
  key: { name: string; value: Spec } | undefined,
): { kind: 'object' | 'map'; target: string; op: string; key: Spec; term: Spec } | undefined {
  let kind: 'object' | 'map';
  let target: string;
  let key1: AnyNode;
  let sum: AnyNode;
  if (e.type === 'AssignmentExpression' && e.operator === '=') {
    const left = e.left as AnyNode;
    if (left.type !== 'MemberExpression' || !left.computed || left.optional || left.object.type !== 'Identifier')
      return undefined;
    kind = 'object';
    target = left.object.name;
    key1 = left.property;
    sum = e.right;
  } else if (e.type === 'CallExpression' && !e.optional && e.arguments.length === 2) {
    if (!methodOf(e.callee, 'set')) return undefined;
    kind = 'map';
    target = e.callee.object.name;
    key1 = e.arguments[0];
    sum = e.arguments[1];
  } else return undefined;
  if (sum.type !== 'BinaryExpression' || sum.operator !== '+') return undefined;
  const acc = sum.left as AnyNode;
  if (acc.type !== 'LogicalExpression' || (acc.operator !== '||' && acc.operator !== '??')) return undefined;
  if (acc.right.type !== 'Literal' || acc.right.value !== 0) return undefined;
  const read = acc.left as AnyNode;
  let key2: AnyNode;
  if (kind === 'object') {
    if (read.type !== 'MemberExpression' || !read.computed || read.optional) return undefined;
    if (read.object.type !== 'Identifier' || read.object.name !== target) return undefined;
    key2 = read.property;
  } else {
    if (read.type !== 'CallExpression' || read.optional || read.arguments.length !== 1) return undefined;
    if (!methodOf(read.callee, 'get') || read.callee.object.name !== target) return undefined;
    key2 = read.arguments[0];
  }
  const k1 = keyOf(key1, reads, key);
  const k2 = keyOf(key2, reads, key);
  const term = termOf(sum.right, reads);
  if (!k1 || !k2 || !term || JSON.stringify(k1) !== JSON.stringify(k2)) return undefined;
  return { kind, target, op: acc.operator, key: k1, term };
}

/** `m.name` (no `?.`, not computed) on a variable `m`. */
function methodOf(callee: AnyNode, name: string): boolean {
  return (
    callee.type === 'MemberExpression' &&
    !callee.computed &&
    !callee.optional &&
    callee.object.type === 'Identifier' &&
    callee.property.type === 'Identifier' &&
    callee.property.name === name
  );
}

/** A key: the block's `const k` (its value), or a key value written in place. */
function keyOf(e: AnyNode, reads: Reads, key: { name: string; value: Spec } | undefined): Spec | undefined {
  if (key && e.type === 'Identifier' && e.name === key.name) return key.value;
  return keyValue(e, reads);
}

/** A value, or a `+` of values and string or number literals reading at least one value. */
function keyValue(e: AnyNode, reads: Reads): Spec | undefined {
  const walk = (x: AnyNode): Spec | undefined => {
    const f = reads.field(x);
    if (f !== undefined) return ['f', f];
    if (x.type === 'Literal' && (typeof x.value === 'string' || typeof x.value === 'number'))
      return [typeof x.value === 'string' ? 's' : 'n', x.value];
    if (x.type === 'BinaryExpression' && x.operator === '+') {
      const a = walk(x.left);
      const b = walk(x.right);
      return a && b ? ['b', '+', a, b] : undefined;
    }
    return undefined;
  };
  const v = walk(e);
  return v && JSON.stringify(v).includes('["f",') ? v : undefined;
}

/** A term: a number literal, a value, or `value || number` / `value ?? number`. */
function termOf(e: AnyNode, reads: Reads): Spec | undefined {
  const f = reads.field(e);
  if (f !== undefined) return ['f', f];
  if (e.type === 'Literal' && typeof e.value === 'number') return ['n', e.value];
  if (e.type === 'LogicalExpression' && (e.operator === '||' || e.operator === '??')) {
    const v = reads.field(e.left);
    const n = e.right as AnyNode;
    if (v !== undefined && n.type === 'Literal' && typeof n.value === 'number')
      return ['L', e.operator, ['f', v], ['n', n.value]];
  }
  return undefined;
}

/** A condition: values compared with literals (string, number, boolean, null), `!`, `&&`, `||`, a value's truth. */
function condition(e: AnyNode, reads: Reads): Spec | undefined {
  const f = reads.field(e);
  if (f !== undefined) return ['f', f];
  switch (e.type) {
    case 'Literal':
      if (typeof e.value === 'string' || typeof e.value === 'number')
        return [typeof e.value === 'string' ? 's' : 'n', e.value];
      if (e.value === null || typeof e.value === 'boolean') return ['l', e.value];
      return undefined;
    case 'UnaryExpression': {
      if (e.operator === '-' && e.argument.type === 'Literal' && typeof e.argument.value === 'number')
        return ['n', -e.argument.value];
      if (e.operator !== '!') return undefined;
      const a = condition(e.argument, reads);
      return a && ['!', a];
    }
    case 'BinaryExpression': {
      if (!COMPARE.has(e.operator)) return undefined;
      const a = condition(e.left, reads);
      const b = condition(e.right, reads);
      return a && b ? ['b', e.operator, a, b] : undefined;
    }
    case 'LogicalExpression': {
      if (e.operator === '??') return undefined;
      const a = condition(e.left, reads);
      const b = condition(e.right, reads);
      return a && b ? ['L', e.operator, a, b] : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Whether `name` is declared by a top-level `const|let name = {}` (kind 'object') or `= new Map()`
 * ('map') before the loop, and every other mention of it is inside the loop or after it outside any
 * function (a function could run between the declaration and the loop).
 */
function freshTarget(
  name: string,
  kind: string,
  body: AnyNode[],
  at: number,
  loop: AnyNode,
  up: Map<AnyNode, [AnyNode, string]>,
  mentions: AnyNode[],
): boolean {
  let decl: AnyNode | undefined;
  for (let k = 0; k < at && !decl; k++) {
    const s = body[k];
    if (s.type !== 'VariableDeclaration' || s.kind === 'var') continue;
    decl = s.declarations.find((d: AnyNode) => d.id.type === 'Identifier' && d.id.name === name);
  }
  const init = decl?.init as AnyNode | undefined;
  if (!init) return false;
  const made =
    kind === 'object'
      ? init.type === 'ObjectExpression' && init.properties.length === 0
      : init.type === 'NewExpression' &&
        init.arguments.length === 0 &&
        init.callee.type === 'Identifier' &&
        init.callee.name === 'Map';
  if (!made) return false;
  for (const m of mentions) {
    if (m.name !== name || m === decl!.id) continue;
    if (m.start >= loop.start && m.end <= loop.end) continue;
    if (m.start < loop.end || inFunction(m, up)) return false;
  }
  return true;
}

/** Whether `node` sits inside a function, arrow or class. */
function inFunction(node: AnyNode, up: Map<AnyNode, [AnyNode, string]>): boolean {
  for (let at = up.get(node); at; at = up.get(at[0]))
    if (FUNCTION_NODES.has(at[0].type) || at[0].type === 'ClassBody') return true;
  return false;
}

/** Whether identifier `node` declares its name (a variable, function, class, parameter or catch binding). */
function declares(node: AnyNode, up: Map<AnyNode, [AnyNode, string]>): boolean {
  const [p, k] = up.get(node) ?? [null, ''];
  if (!p) return false;
  if (p.type === 'VariableDeclarator') return k === 'id';
  if (p.type === 'AssignmentExpression' || p.type === 'UpdateExpression') return k === 'left' || k === 'argument';
  if (p.type === 'ForOfStatement' || p.type === 'ForInStatement') return k === 'left';
  return (
    [
      'FunctionDeclaration',
      'FunctionExpression',
      'ArrowFunctionExpression',
      'ClassDeclaration',
      'ClassExpression',
      'CatchClause',
      'ArrayPattern',
      'ObjectPattern',
      'AssignmentPattern',
      'RestElement',
      'Property',
    ].includes(p.type) && !(p.type === 'Property' && up.get(p)?.[0].type === 'ObjectExpression')
  );
}
