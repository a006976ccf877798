import { INSERTED_CLOSE, INSERTED_OPEN, ROW_LOOP_GLOBAL } from '../../../schema/rowLoop.js';
import type { LocalEdit } from './localize.js';
import { type AnyNode, collectPatternNames, FUNCTION_NODES, LOOP_NODES } from './patternNames.js';
import { isBareObjectsCall } from './rowChains.js';
import { keyedTableEdits } from './tableLoops.js';
import { topEdits } from './keyedTop.js';

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
  /** The target whose write-back goes through `release`: its totals may still be deferred (keyedTop.ts). */
  release?: string;
}

/** Statements whose completion is never empty: one after the loop makes the loop's completion unseen. */
export const VALUED = new Set(['ExpressionStatement', 'IfStatement', 'SwitchStatement', 'TryStatement', ...LOOP_NODES]);
const COMPARE = new Set(['===', '!==', '==', '!=', '<', '<=', '>', '>=']);

type Spec = unknown[];

/** How a loop's body names its values: the field index a node reads, or undefined when it is not a read. */
export interface Reads {
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
  source: string,
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
    const x = loop.right as AnyNode;
    // a loop over a table itself (a name or a call: tableLoops.ts) reads its rows as objects() would
    const table = x.type === 'Identifier' || (x.type === 'CallExpression' && !x.optional);
    reads = isBareObjectsCall(x) || (table && !arrayCall(x)) ? rowReads(id) : arrayCall(x) ? valueReads(id) : undefined;
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
  if (shape.math && mentions.some((m) => m.name === 'Math' && declares(m, up))) return undefined;
  // the top entries of a sum read right after the loop, from the groups it wrote (keyedTop.ts)
  const after = mentions.filter((m) => m.name === target && m.start >= loop.end);
  const term = spec[4] as unknown[];
  const entry = spec[1] === 'entry' ? { shape: term[1] as 'a' | 'o', names: term[2] as string[] } : null;
  const { edits: top, defer } = topEdits(
    body[at + 1],
    target,
    spec[0] as string,
    source,
    (n) => mentions.some((m) => m.name === n && declares(m, up)),
    after,
    loop,
    entry,
  );
  const specText = JSON.stringify(defer ? ['defer', spec] : spec);
  const release = defer ? { release: target } : {};
  const payload = `[${specText}, ${target}]`;
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
      edits: [ins(loop.start, indexGuard(specText, target, names)), ...top],
      ...release,
    };
  }
  const right = loop.right as AnyNode;
  if (!isBareObjectsCall(right) && !arrayCall(right)) {
    const edits = keyedTableEdits(loop, source, `${JSON.stringify(reads.fields)}, ["keyed"], ${payload}`);
    return edits && { names: [target], edits: [...edits, ...top], ...release };
  }
  const open = `${ROW_LOOP_GLOBAL}.open(${JSON.stringify(reads.fields)}, ["keyed"], ${payload})`;
  // after the argument: `t.array('A',)` parses
  const edit = isBareObjectsCall(right) ? ins(right.end - 1, open) : ins(right.arguments[0].end, `, ${open}`);
  return { names: [target], edits: [edit, ...top], ...release };
}

/**
 * What goes in front of an index loop the columns may answer: `if (!__sbirtools_rowLoop.keyed(spec,
 * target, [xs, ys], iter) && ((ys = __sbirtools_rowLoop.own(ys)), 1)) ` (xs the array bounding the
 * loop, `iter` 1 for a for-of over xs). When the guest declines, each other array is handed to the loop
 * as written as an array of its own (`own`: a copy when it is a column's kept values read in place,
 * sharedArrays.ts, which the index of another array's bound could pass; else itself).
 */
export function indexGuard(spec: string, target: string, arrays: string[], iter?: number): string {
  let own = '';
  for (const a of arrays.slice(1)) own += `(${a} = ${ROW_LOOP_GLOBAL}.own(${a})), `;
  const call = `!${ROW_LOOP_GLOBAL}.keyed(${spec}, ${target}, [${arrays.join(', ')}]${iter === undefined ? '' : `, ${iter}`})`;
  return own ? `if (${call} && (${own}1)) ` : `if (${call}) `;
}

/** Whether a top-level `const|let` among the first `at` statements of `body` declares `name`. */
export function declaredBefore(name: string, body: AnyNode[], at: number): boolean {
  const names: string[] = [];
  for (let k = 0; k < at; k++)
    if (body[k].type === 'VariableDeclaration' && body[k].kind !== 'var')
      for (const d of body[k].declarations) collectPatternNames(d.id, names);
  return names.includes(name);
}

/** The one name `left` declares (`const r`, `let r`), of one of `kinds`, or undefined. */
export function declaredName(left: AnyNode | null, kinds: string[]): string | undefined {
  if (!left || left.type !== 'VariableDeclaration' || !kinds.includes(left.kind)) return undefined;
  if (left.declarations.length !== 1) return undefined;
  const id = left.declarations[0].id;
  return id.type === 'Identifier' ? (id.name as string) : undefined;
}

/** `<expr>.array('col')`: one string literal argument, no `?.`. */
export function arrayCall(call: AnyNode): boolean {
  if (call.type !== 'CallExpression' || call.optional || call.arguments.length !== 1) return false;
  const callee = call.callee as AnyNode;
  if (callee.type !== 'MemberExpression' || callee.computed || callee.optional) return false;
  if (callee.property.type !== 'Identifier' || callee.property.name !== 'array') return false;
  const arg = call.arguments[0] as AnyNode;
  return arg.type === 'Literal' && typeof arg.value === 'string';
}

/** `for (let i = 0; i < xs.length; i++ | ++i | i += 1)`: the index's name and the bounding array's. */
export function indexLoop(loop: AnyNode): { index: string; bound: string } | undefined {
  const index = countingIndex(loop);
  if (!index) return undefined;
  const len = (loop.test as AnyNode).right as AnyNode;
  if (len.type !== 'MemberExpression' || len.computed || len.optional || len.object.type !== 'Identifier')
    return undefined;
  if (len.property.type !== 'Identifier' || len.property.name !== 'length') return undefined;
  const bound = len.object.name as string;
  return bound === index ? undefined : { index, bound };
}

/** The index of `for (let i = 0; i < ANY; i++ | ++i | i += 1)`, or undefined. */
function countingIndex(loop: AnyNode): string | undefined {
  const index = declaredName(loop.init, ['let']);
  if (!index) return undefined;
  const init = loop.init.declarations[0].init as AnyNode | null;
  if (!init || init.type !== 'Literal' || init.value !== 0) return undefined;
  const test = loop.test as AnyNode | null;
  if (!test || test.type !== 'BinaryExpression' || test.operator !== '<') return undefined;
  if (test.left.type !== 'Identifier' || test.left.name !== index) return undefined;
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
  return step ? index : undefined;
}

/**
 * indexLoop's head, or one whose test also stops on a local (session 20): `i < xs.length && n < 20`
 * (either order; `<`, `<=`, `>`, `>=`, the local on the left, a number literal on the right). Both
 * conjuncts are pure reads of locals: the loop visits the rows indexLoop's would while the stop holds.
 */
export function indexLoopStop<H extends { index: string; bound: string }>(
  loop: AnyNode,
  headOf: (loop: AnyNode) => H | undefined = indexLoop as (loop: AnyNode) => H | undefined,
): (H & { stop?: { name: string; op: string; value: number } }) | undefined {
  const test = loop.test as AnyNode | null;
  if (test?.type !== 'LogicalExpression' || test.operator !== '&&') return headOf(loop);
  for (const [len, other] of [
    [test.left, test.right],
    [test.right, test.left],
  ] as AnyNode[][]) {
    const head = headOf({ ...loop, test: len });
    if (!head || other.type !== 'BinaryExpression' || !['<', '<=', '>', '>='].includes(other.operator)) continue;
    const { left, right } = other;
    if (left.type !== 'Identifier' || right.type !== 'Literal' || typeof right.value !== 'number') continue;
    if (left.name === head.index || left.name === head.bound) continue;
    return { ...head, stop: { name: left.name as string, op: other.operator as string, value: right.value } };
  }
  return undefined;
}

/**
 * `for (let i = 0; i < N; i++ | ++i | i += 1)` with N a name or `T.numRows()` (session 20, a loop of
 * `T.get(col, i)` reads): the index's name, N's name ('' for the call) and T's.
 */
export function rowIndexLoop(loop: AnyNode): { index: string; bound: string; table?: string } | undefined {
  const index = countingIndex(loop);
  if (!index) return undefined;
  const n = (loop.test as AnyNode).right as AnyNode;
  if (n.type === 'Identifier') return n.name === index ? undefined : { index, bound: n.name as string };
  if (n.type !== 'CallExpression' || n.optional || n.arguments.length !== 0) return undefined;
  const callee = n.callee as AnyNode;
  if (callee.type !== 'MemberExpression' || callee.computed || callee.optional) return undefined;
  if (callee.object.type !== 'Identifier' || callee.property.name !== 'numRows') return undefined;
  const table = callee.object.name as string;
  return table === index ? undefined : { index, bound: '', table };
}

/** `T.get('col', i)` of one table name T (`tables` collects the names read) at the loop's index `i`. */
export function getReads(index: string, tables: Set<string>): Reads {
  const fields: string[] = [];
  return {
    fields,
    field(e) {
      if (e.type !== 'CallExpression' || e.optional || e.arguments.length !== 2) return undefined;
      const callee = e.callee as AnyNode;
      if (callee.type !== 'MemberExpression' || callee.computed || callee.optional) return undefined;
      if (callee.object.type !== 'Identifier' || callee.property.name !== 'get') return undefined;
      const [col, at] = e.arguments as AnyNode[];
      if (col.type !== 'Literal' || typeof col.value !== 'string') return undefined;
      if (at.type !== 'Identifier' || at.name !== index) return undefined;
      tables.add(callee.object.name as string);
      const k = fields.indexOf(col.value);
      return k >= 0 ? k : fields.push(col.value) - 1;
    },
  };
}

/** `r.name`, `r['name']` of the row `r` (objects()). */
export function rowReads(row: string): Reads {
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
export function valueReads(value: string): Reads {
  return {
    fields: [value],
    field: (e) => (e.type === 'Identifier' && e.name === value ? 0 : undefined),
  };
}

/** `xs[i]` of an array `xs` named by a variable; the bounding array is field 0. */
export function arrayReads(index: string, bound: string): Reads {
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
export const statements = (s: AnyNode): AnyNode[] => (s.type === 'BlockStatement' ? s.body : [s]);

/** `continue;` or `{ continue; }`, unlabeled. */
export function isContinue(s: AnyNode): boolean {
  const list = statements(s);
  return list.length === 1 && list[0].type === 'ContinueStatement' && !list[0].label;
}

/**
 * The body's shape as the guest's spec, `[target kind, op, key, cond, term]`, and the target's name,
 * or undefined when the body is anything else (see keyedLoop and entryShape).
 */
function bodyShape(
  body: AnyNode,
  reads: Reads,
  taken: string[],
): { target: string; spec: Spec; math?: boolean } | undefined {
  return sumShape(body, reads, taken) ?? entryShape(body, reads, taken);
}

/** A body that adds one term per row into the object's or Map's value of the key (see keyedLoop). */
function sumShape(body: AnyNode, reads: Reads, taken: string[]): { target: string; spec: Spec } | undefined {
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
export function termOf(e: AnyNode, reads: Reads): Spec | undefined {
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
export function condition(e: AnyNode, reads: Reads): Spec | undefined {
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

/** An entry's first value: `[n, ...]` (shape 'a') or `{name: n, ...}` ('o'), number literals only. */
interface Init {
  shape: 'a' | 'o';
  names: string[];
  values: Spec[];
}

/** A number literal, or one negated: its spec. */
function numberOf(e: AnyNode): Spec | undefined {
  if (e.type === 'Literal' && typeof e.value === 'number') return ['n', e.value];
  if (e.type === 'UnaryExpression' && e.operator === '-' && e.argument.type === 'Literal')
    // -0 would not survive the spec's JSON: such an entry runs as written
    return typeof e.argument.value === 'number' && e.argument.value !== 0 ? ['n', -e.argument.value] : undefined;
  return undefined;
}

/** `[0, 0]` or `{ sum: 0, n: 0 }`: distinct names (no `__proto__`, no spread, method or getter), numbers. */
function initOf(e: AnyNode): Init | undefined {
  const names: string[] = [];
  const values: Spec[] = [];
  if (e.type === 'ArrayExpression') {
    for (const x of e.elements as (AnyNode | null)[]) {
      const v = x && numberOf(x);
      if (!v) return undefined;
      names.push(String(names.length));
      values.push(v);
    }
    return names.length ? { shape: 'a', names, values } : undefined;
  }
  if (e.type !== 'ObjectExpression') return undefined;
  for (const p of e.properties as AnyNode[]) {
    if (p.type !== 'Property' || p.kind !== 'init' || p.method || p.shorthand || p.computed) return undefined;
    const name = p.key.type === 'Identifier' ? p.key.name : typeof p.key.value === 'string' ? p.key.value : undefined;
    const v = numberOf(p.value);
    if (typeof name !== 'string' || name === '__proto__' || names.includes(name) || !v) return undefined;
    names.push(name);
    values.push(v);
  }
  return names.length ? { shape: 'o', names, values } : undefined;
}

/** What an entry loop's body has named so far (see entryShape). */
interface Entry {
  kind: 'object' | 'map';
  target: string;
  key: Spec;
  init: Init;
  /** The `const e` naming the entry, once there is one. */
  name?: string;
  /** `const e = m.get(K) || INIT`: the body must end `m.set(K, e)` (and never reads `m.get(K)`). */
  needsSet?: boolean;
}

/**
 * A body that keeps one object or array per key and adds terms into its slots (issue 25's pair
 * accumulators): any number of `if (C) continue;` and `const v = VALUE` (a key or a value the
 * body reads), then the entry, made by one of
 *   const e = (o[K] ||= INIT);  o[K] ||= INIT;  if (!o[K]) o[K] = INIT;  (o[K] ??= INIT).s += T;
 *   const e = m.get(K) || INIT; ... m.set(K, e);   if (!m.has(K)) m.set(K, INIT); const e = m.get(K);
 * (`??` for `||` too), and updates `E[0] += T`, `E.s += T`, `E.n++`, `++E.n` of the entry's slots,
 * where E is `e`, `o[K]` or (the has form) `m.get(K)`; INIT an array or object literal of numbers.
 * The spec is `[kind, 'entry', key, cond, ['e', shape, names, inits, [[slot, term], ...]]]`.
 */
function entryShape(
  body: AnyNode,
  reads: Reads,
  taken: string[],
): { target: string; spec: Spec; math: boolean } | undefined {
  const plain = new Map<string, number>();
  const keys = new Map<string, Spec>();
  const r: Reads = {
    fields: reads.fields,
    field: (e) => (e.type === 'Identifier' && plain.has(e.name) ? plain.get(e.name) : reads.field(e)),
  };
  const keyAt = (e: AnyNode) => (e.type === 'Identifier' && keys.has(e.name) ? keys.get(e.name) : keyValue(e, r));
  const sameKey = (e: AnyNode, key: Spec) => {
    const k = keyAt(e);
    return k !== undefined && JSON.stringify(k) === JSON.stringify(key);
  };
  const names: string[] = [];
  const conds: Spec[] = [];
  const updates: Spec[] = [];
  let entry: Entry | undefined;
  let done = false;
  let math = false;
  /** `o[K] ||= INIT` / `??=`. */
  const made = (e: AnyNode): Entry | undefined => {
    if (e.type !== 'AssignmentExpression' || (e.operator !== '||=' && e.operator !== '??=')) return undefined;
    const left = e.left as AnyNode;
    if (left.type !== 'MemberExpression' || !left.computed || left.optional || left.object.type !== 'Identifier')
      return undefined;
    const key = keyAt(left.property);
    const init = initOf(e.right);
    return key && init ? { kind: 'object', target: left.object.name, key, init } : undefined;
  };
  /** `m.get(K)` of the entry's Map and key. */
  const mapGet = (e: AnyNode, target?: string, key?: Spec): Spec | undefined => {
    if (e.type !== 'CallExpression' || e.optional || e.arguments.length !== 1 || !methodOf(e.callee, 'get'))
      return undefined;
    if (target !== undefined && e.callee.object.name !== target) return undefined;
    const k = keyAt(e.arguments[0]);
    return k && (key === undefined || JSON.stringify(k) === JSON.stringify(key)) ? k : undefined;
  };
  /** Whether `e` names the entry. */
  const isEntry = (e: AnyNode): boolean => {
    if (!entry) return false;
    if (e.type === 'Identifier') return e.name === entry.name;
    if (entry.kind === 'object')
      return (
        e.type === 'MemberExpression' &&
        e.computed &&
        !e.optional &&
        e.object.type === 'Identifier' &&
        e.object.name === entry.target &&
        sameKey(e.property, entry.key)
      );
    return !entry.needsSet && mapGet(e, entry.target, entry.key) !== undefined;
  };
  /** An update of a slot: `E[0] += T`, `E.s += T`, `E.n++`, `++E.n`, `E.s = Math.max(E.s, T)` (or min); the entry may be made by it. */
  const update = (e: AnyNode): boolean => {
    let slot: AnyNode;
    let term: Spec | undefined;
    let op: string | undefined;
    if (e.type === 'AssignmentExpression' && e.operator === '=' && entry) {
      // `E.s = Math.max(E.s, T)` / `Math.max(T, E.s)`, min alike: the run's Math is checked as the loop starts
      const call = e.right as AnyNode;
      if (call.type !== 'CallExpression' || call.optional || call.arguments.length !== 2) return false;
      const callee = call.callee as AnyNode;
      if (callee.type !== 'MemberExpression' || callee.computed || callee.optional) return false;
      if (callee.object.type !== 'Identifier' || callee.object.name !== 'Math') return false;
      if (callee.property.name !== 'max' && callee.property.name !== 'min') return false;
      const [a, b] = call.arguments as AnyNode[];
      const same = (x: AnyNode) => sameSlot(x, e.left);
      const other = same(a) ? b : same(b) ? a : undefined;
      if (!other) return false;
      slot = e.left;
      term = termAt(other);
      op = callee.property.name;
      math = true;
    } else if (e.type === 'AssignmentExpression' && e.operator === '+=') {
      slot = e.left;
      term = termAt(e.right);
    } else if (e.type === 'UpdateExpression' && e.operator === '++') {
      slot = e.argument;
      term = ['n', 1];
    } else return false;
    if (!term || slot.type !== 'MemberExpression' || slot.optional) return false;
    if (!entry) entry = made(slot.object);
    else if (!isEntry(slot.object)) return false;
    if (!entry) return false;
    let name: unknown;
    if (!slot.computed && slot.property.type === 'Identifier') name = slot.property.name;
    else if (slot.computed && slot.property.type === 'Literal') name = slot.property.value;
    const at = entry.init.names.indexOf(typeof name === 'number' ? String(name) : (name as string));
    if ((typeof name !== 'string' && typeof name !== 'number') || at < 0) return false;
    if (entry.init.shape === 'a' ? typeof name !== 'number' : typeof name !== 'string') return false;
    updates.push(op ? [at, term, op] : [at, term]);
    return true;
  };
  /** Whether `x` reads the same slot of the entry as `slot` writes (written alike). */
  const sameSlot = (x: AnyNode, slot: AnyNode): boolean =>
    x.type === 'MemberExpression' &&
    slot.type === 'MemberExpression' &&
    !x.optional &&
    x.computed === slot.computed &&
    isEntry(x.object) &&
    isEntry(slot.object) &&
    (x.computed
      ? x.property.type === 'Literal' && slot.property.type === 'Literal' && x.property.value === slot.property.value
      : x.property.name === slot.property.name);
  /** A term: as termOf, a plain value's name for its value. */
  const termAt = (e: AnyNode): Spec | undefined => termOf(e, r);
  const list = statements(body);
  for (let k = 0; k < list.length; k++) {
    const s = list[k] as AnyNode;
    if (done) return undefined;
    if (s.type === 'IfStatement' && !s.alternate && isContinue(s.consequent) && !entry) {
      const c = condition(s.test, r);
      if (!c) return undefined;
      conds.push(['!', c]);
    } else if (s.type === 'VariableDeclaration') {
      const name = declaredName(s, ['const', 'let']);
      const init = s.declarations[0].init as AnyNode | null;
      if (!name || !init || taken.includes(name) || names.includes(name) || reads.fields.includes(name))
        return undefined;
      names.push(name);
      if (entry && !entry.name && entry.kind === 'map' && mapGet(init, entry.target, entry.key)) entry.name = name;
      else if (!entry && made(init)) entry = { ...made(init)!, name };
      else if (
        !entry &&
        init.type === 'LogicalExpression' &&
        (init.operator === '||' || init.operator === '??') &&
        mapGet(init.left) &&
        initOf(init.right)
      )
        entry = {
          kind: 'map',
          target: init.left.callee.object.name,
          key: mapGet(init.left)!,
          init: initOf(init.right)!,
          name,
          needsSet: true,
        };
      else {
        const v = keyAt(init) ?? (r.field(init) !== undefined ? ['f', r.field(init)] : undefined);
        if (!v) return undefined;
        if (v[0] === 'f') plain.set(name, v[1] as number);
        keys.set(name, v);
      }
    } else if (s.type === 'IfStatement' && !s.alternate && !entry) {
      // `if (!m.has(K)) m.set(K, INIT);` or `if (!o[K]) o[K] = INIT;`
      const inner = statements(s.consequent);
      const test = s.test as AnyNode;
      if (inner.length !== 1 || inner[0].type !== 'ExpressionStatement') return undefined;
      if (test.type !== 'UnaryExpression' || test.operator !== '!') return undefined;
      const arg = test.argument as AnyNode;
      const put = inner[0].expression as AnyNode;
      if (arg.type === 'CallExpression' && !arg.optional && arg.arguments.length === 1 && methodOf(arg.callee, 'has')) {
        const key = keyAt(arg.arguments[0]);
        const target = arg.callee.object.name as string;
        if (!key || put.type !== 'CallExpression' || put.optional || put.arguments.length !== 2) return undefined;
        if (!methodOf(put.callee, 'set') || put.callee.object.name !== target || !sameKey(put.arguments[0], key))
          return undefined;
        const init = initOf(put.arguments[1]);
        if (!init) return undefined;
        entry = { kind: 'map', target, key, init };
      } else {
        if (arg.type !== 'MemberExpression' || !arg.computed || arg.optional || arg.object.type !== 'Identifier')
          return undefined;
        const key = keyAt(arg.property);
        const target = arg.object.name as string;
        if (!key || put.type !== 'AssignmentExpression' || put.operator !== '=') return undefined;
        const left = put.left as AnyNode;
        if (left.type !== 'MemberExpression' || !left.computed || left.optional || left.object.type !== 'Identifier')
          return undefined;
        if (left.object.name !== target || !sameKey(left.property, key)) return undefined;
        const init = initOf(put.right);
        if (!init) return undefined;
        entry = { kind: 'object', target, key, init };
      }
    } else if (s.type === 'ExpressionStatement') {
      const e = s.expression as AnyNode;
      if (!entry && made(e)) entry = made(e);
      else if (entry?.needsSet && entry.name && e.type === 'CallExpression' && !e.optional) {
        if (e.arguments.length !== 2 || !methodOf(e.callee, 'set') || e.callee.object.name !== entry.target)
          return undefined;
        const v = e.arguments[1] as AnyNode;
        if (!sameKey(e.arguments[0], entry.key) || v.type !== 'Identifier' || v.name !== entry.name) return undefined;
        done = true;
      } else if (!update(e)) return undefined;
    } else return undefined;
  }
  if (!entry || !updates.length || (entry.needsSet && !done)) return undefined;
  if (taken.includes(entry.target) || names.includes(entry.target) || reads.fields.includes(entry.target))
    return undefined;
  let cond: Spec | null = null;
  for (const c of conds) cond = cond === null ? c : ['L', '&&', cond, c];
  const { shape, names: slots, values } = entry.init;
  return {
    target: entry.target,
    spec: [entry.kind, 'entry', entry.key, cond, ['e', shape, slots, values, updates]],
    math,
  };
}
