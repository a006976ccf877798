/**
 * filter with a JavaScript closure that Arquero cannot compile (a method call on a value, a
 * variable from the code around it), when the closure reads exactly one dictionary column and
 * cannot have side effects: `d => ['DOD', 'NASA'].includes(d.Agency)`,
 * `d => d.Agency.startsWith('N')`, `d => wanted.has(d.Agency)`. The closure itself is called once
 * per dictionary entry (and once for null) with a row holding only that column, then rows are kept
 * by code. Its source is checked first (acorn): no assignment, update, delete, `new`, `this`,
 * `arguments`, await/yield, no use of the row other than `d.X` / `d['X']`, and calls only of
 * pure methods (string, array, Set/Map lookups, RegExp tests) or of nested arrow functions given to
 * them. Anything else keeps the row-by-row path (closure/fallback.ts).
 */
import { parse } from 'acorn';
import { BitSet, type ColumnTable } from 'arquero';
import { FunctionPrototypeToString, ObjectCreate, ReflectApply } from '../intrinsics.js';
import { sourceOf } from './source.js';

type Node = { type: string; [key: string]: unknown };

/** Methods without side effects on strings, arrays, Sets, Maps and RegExps. */
const PURE_METHODS = new Set(('startsWith endsWith includes indexOf lastIndexOf toLowerCase toUpperCase trim trimStart trimEnd slice '
  + 'substring substr charAt charCodeAt codePointAt at test exec match search split some every find findIndex filter map has get '
  + 'normalize replace replaceAll padStart padEnd repeat concat join localeCompare toString valueOf').split(' '));

/** Methods that call a function argument: only an inline arrow function may be given. */
const CALLBACK_METHODS = new Set(['some', 'every', 'find', 'findIndex', 'filter', 'map']);
/** RegExp methods that move a shared regex's lastIndex: only on a regex literal (a fresh object per call). */
const STATEFUL_REGEX = new Set(['test', 'exec']);

const BANNED = new Set(['AssignmentExpression', 'UpdateExpression', 'NewExpression', 'ThisExpression', 'AwaitExpression', 'YieldExpression',
  'ImportExpression', 'MetaProperty', 'TaggedTemplateExpression', 'ClassExpression', 'ClassDeclaration', 'FunctionDeclaration',
  'FunctionExpression', 'Super', 'ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement', 'ThrowStatement',
  'TryStatement', 'LabeledStatement', 'SwitchStatement', 'ChainExpression', 'SequenceExpression', 'SpreadElement']);

/** The one column the closure reads, or undefined when it is not a foldable closure. */
export function foldableColumn(fn: Function): string | undefined {
  let root: Node;
  try {
    const src = ReflectApply(FunctionPrototypeToString, fn, []) as string;
    root = ((parse(`(${src})`, { ecmaVersion: 'latest' }) as unknown as Node).body as Node[])[0].expression as Node;
  } catch {
    return undefined;
  }
  if (root.type !== 'ArrowFunctionExpression' || root.async || root.generator) return undefined;
  const params = root.params as Node[];
  if (params.length !== 1 || params[0].type !== 'Identifier') return undefined;
  const row = params[0].name as string;
  const cols = new Set<string>();
  const ok = check(root.body as Node, row, cols, new Set([row]));
  return ok && cols.size === 1 ? [...cols][0] : undefined;
}

/** Walks `node`; false at the first construct that could have an effect or use the row otherwise. */
function check(node: Node, row: string, cols: Set<string>, bound: Set<string>): boolean {
  if (BANNED.has(node.type)) return false;
  if (node.type === 'Identifier') {
    if (node.name === 'arguments') return false;
    return node.name !== row; // the row itself only as d.X (handled in MemberExpression)
  }
  if (node.type === 'UnaryExpression' && node.operator === 'delete') return false;
  if (node.type === 'MemberExpression') {
    const obj = node.object as Node;
    if (obj.type === 'Identifier' && obj.name === row) {
      const p = node.property as Node;
      if (!node.computed && p.type === 'Identifier') { cols.add(p.name as string); return true; }
      if (node.computed && p.type === 'Literal' && typeof p.value === 'string') { cols.add(p.value); return true; }
      return false;
    }
    if (!check(obj, row, cols, bound)) return false;
    return node.computed ? check(node.property as Node, row, cols, bound) : true;
  }
  if (node.type === 'CallExpression') {
    const callee = node.callee as Node;
    if (callee.type !== 'MemberExpression' || callee.computed || !PURE_METHODS.has((callee.property as Node).name as string)) return false;
    const method = (callee.property as Node).name as string;
    const recv = callee.object as Node;
    if (STATEFUL_REGEX.has(method) && !(recv.type === 'Literal' && recv.regex)) return false;
    if (!check(recv, row, cols, bound)) return false;
    const args = node.arguments as Node[];
    if (CALLBACK_METHODS.has(method) && (args.length === 0 || args[0].type !== 'ArrowFunctionExpression')) return false;
    if ((method === 'replace' || method === 'replaceAll') && args.length > 1 && args[1].type !== 'Literal' && args[1].type !== 'TemplateLiteral') return false;
    return args.every((a) => (a.type === 'ArrowFunctionExpression' ? checkCallback(a, row, cols, bound) : check(a, row, cols, bound)));
  }
  if (node.type === 'ArrowFunctionExpression') return false; // only as a callback argument
  if (node.type === 'VariableDeclaration') {
    if (node.kind !== 'const') return false;
    for (const d of node.declarations as Node[]) {
      if ((d.id as Node).type !== 'Identifier' || (d.id as Node).name === row || !d.init) return false;
      if (!check(d.init as Node, row, cols, bound)) return false;
    }
    return true;
  }
  if (node.type === 'Property' && !node.computed) return check(node.value as Node, row, cols, bound);
  for (const [key, v] of Object.entries(node)) {
    if (key === 'type' || key === 'start' || key === 'end') continue;
    for (const c of Array.isArray(v) ? v : [v]) {
      if (c && typeof c === 'object' && typeof (c as Node).type === 'string' && !check(c as Node, row, cols, bound)) return false;
    }
  }
  return true;
}

function checkCallback(fn: Node, row: string, cols: Set<string>, bound: Set<string>): boolean {
  if (fn.async || fn.generator) return false;
  const names = new Set(bound);
  for (const p of fn.params as Node[]) {
    if (p.type !== 'Identifier' || p.name === row) return false;
    names.add(p.name as string);
  }
  return check(fn.body as Node, row, cols, names);
}

/** The filtered table, or undefined when the closure does not qualify (or throws for some entry). */
export function fastClosureFilter(t: ColumnTable, fn: (d: unknown, $: unknown) => unknown): ColumnTable | undefined {
  const name = foldableColumn(fn);
  if (name === undefined) return undefined;
  const src = sourceOf(t, name);
  if (src?.kind !== 'dict') return undefined;
  const params = t.params();
  const lut = new Uint8Array(src.dict.length + 1);
  const at = (v: string | null) => {
    const d = ObjectCreate(null) as Record<string, unknown>;
    d[name] = v;
    return fn(d, params) ? 1 : 0;
  };
  lut[0] = at(null);
  for (let k = 0; k < src.dict.length; k++) lut[k + 1] = at(src.dict[k]);
  const n = t.totalRows();
  const codes = src.codes;
  const keep = new BitSet(n);
  const bits = t.mask();
  if (bits) {
    for (let i = bits.next(0); i >= 0; i = bits.next(i + 1)) if (lut[codes[i] + 1]) keep.set(i);
  } else {
    for (let i = 0; i < n; i++) if (lut[codes[i] + 1]) keep.set(i);
  }
  return t.create({ filter: keep });
}
