/**
 * filter with a JavaScript closure that Arquero cannot compile (a method call on a value, a
 * variable from the code around it), when the closure reads 1-3 host dictionary/number/date
 * columns and cannot have side effects: `d => ['DOD', 'NASA'].includes(d.Agency)`,
 * `d => d.Phase === 'Phase II' && d['Award Year'] >= since`, `d => wanted.has(d.Agency)`. The
 * closure itself is called once per distinct combination of those columns' values (met in row
 * order), with a row holding only those columns, and rows are kept by combined code. Its source is checked first (acorn): no assignment, update, delete, `new`, `this`,
 * `arguments`, await/yield, no use of the row other than `d.X` / `d['X']`, and calls only of
 * pure methods (string, array, Set/Map lookups, RegExp tests) or of nested arrow functions given to
 * them. Anything else keeps the row-by-row path (closure/fallback.ts).
 */
import { BitSet, type ColumnTable } from 'arquero';
import { closureNode, type Node } from '../closure/arrowSource.js';
import { SafeMap, SafeSet, SafeWeakMap, ObjectCreate } from '../intrinsics.js';
import { keyCodes } from './keyCodes.js';
import { sourceOf, type NumSource } from './source.js';

/** Methods without side effects on strings, arrays, Sets, Maps and RegExps. */
const PURE_METHODS = new Set(
  (
    'startsWith endsWith includes indexOf lastIndexOf toLowerCase toUpperCase trim trimStart trimEnd slice ' +
    'substring substr charAt charCodeAt codePointAt at test exec match search split some every find findIndex filter map has get ' +
    'normalize replace replaceAll padStart padEnd repeat concat join localeCompare toString valueOf'
  ).split(' '),
);

/** Methods that call a function argument: only an inline arrow function may be given. */
const CALLBACK_METHODS = new Set(['some', 'every', 'find', 'findIndex', 'filter', 'map']);
/** RegExp methods that move a shared regex's lastIndex: only on a regex literal (a fresh object per call). */
const STATEFUL_REGEX = new Set(['test', 'exec']);

const BANNED = new Set([
  'AssignmentExpression',
  'UpdateExpression',
  'NewExpression',
  'ThisExpression',
  'AwaitExpression',
  'YieldExpression',
  'ImportExpression',
  'MetaProperty',
  'TaggedTemplateExpression',
  'ClassExpression',
  'ClassDeclaration',
  'FunctionDeclaration',
  'FunctionExpression',
  'Super',
  'ForStatement',
  'ForInStatement',
  'ForOfStatement',
  'WhileStatement',
  'DoWhileStatement',
  'ThrowStatement',
  'TryStatement',
  'LabeledStatement',
  'SwitchStatement',
  'ChainExpression',
  'SequenceExpression',
  'SpreadElement',
]);

/** The 1-3 columns the closure reads, or undefined when it is not a foldable closure. */
export function foldableColumns(fn: Function): string[] | undefined {
  const root = closureNode(fn);
  if (!root) return undefined;
  if (root.type !== 'ArrowFunctionExpression' || root.async || root.generator) return undefined;
  const params = root.params as Node[];
  if (params.length !== 1 || params[0].type !== 'Identifier') return undefined;
  const row = params[0].name as string;
  const cols = new Set<string>();
  const ok = check(root.body as Node, row, cols, new Set([row]));
  return ok && cols.size >= 1 && cols.size <= 3 ? [...cols] : undefined;
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
      if (!node.computed && p.type === 'Identifier') {
        cols.add(p.name as string);
        return true;
      }
      if (node.computed && p.type === 'Literal' && typeof p.value === 'string') {
        cols.add(p.value);
        return true;
      }
      return false;
    }
    if (!check(obj, row, cols, bound)) return false;
    return node.computed ? check(node.property as Node, row, cols, bound) : true;
  }
  if (node.type === 'CallExpression') {
    const callee = node.callee as Node;
    if (
      callee.type !== 'MemberExpression' ||
      callee.computed ||
      !PURE_METHODS.has((callee.property as Node).name as string)
    )
      return false;
    const method = (callee.property as Node).name as string;
    const recv = callee.object as Node;
    if (STATEFUL_REGEX.has(method) && !(recv.type === 'Literal' && recv.regex)) return false;
    if (!check(recv, row, cols, bound)) return false;
    const args = node.arguments as Node[];
    if (CALLBACK_METHODS.has(method) && (args.length === 0 || args[0].type !== 'ArrowFunctionExpression')) return false;
    if (
      (method === 'replace' || method === 'replaceAll') &&
      args.length > 1 &&
      args[1].type !== 'Literal' &&
      args[1].type !== 'TemplateLiteral'
    )
      return false;
    return args.every((a) =>
      a.type === 'ArrowFunctionExpression' ? checkCallback(a, row, cols, bound) : check(a, row, cols, bound),
    );
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
      if (c && typeof c === 'object' && typeof (c as Node).type === 'string' && !check(c as Node, row, cols, bound))
        return false;
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

/**
 * Exact codes of a number/date column for the fold: 0 is null, every distinct value its own code
 * (-0 apart from 0: a closure may tell them apart; NaN one code). Cached per column.
 */
const exact = new SafeWeakMap<Float64Array, { codes: Int32Array; card: number }>();
function exactCodes(src: NumSource): { codes: Int32Array; card: number } {
  let e = exact.get(src.values);
  if (!e) {
    const { values, valid } = src;
    const codes = new Int32Array(values.length);
    const index = new SafeMap<number, number>();
    let next = 2; // 1 is -0
    for (let i = 0; i < values.length; i++) {
      if (!valid[i]) continue;
      const v = values[i];
      if (v === 0 && 1 / v < 0) {
        codes[i] = 1;
        continue;
      }
      let c = index.get(v);
      if (c === undefined) index.set(v, (c = next++));
      codes[i] = c;
    }
    exact.set(src.values, (e = { codes, card: next }));
  }
  return e;
}

/** True when a sample of 2,048 values spread over the column already holds more than 256 distinct ones (e.g. amounts). */
function manyValues(values: Float64Array): boolean {
  const seen = new SafeSet<number>();
  const step = Math.max(1, Math.floor(values.length / 2048));
  for (let i = 0; i < values.length; i += step) if (seen.add(values[i]).size > 256) return true;
  return false;
}

/**
 * The filtered table, or undefined when the closure does not qualify, throws for some value, or
 * meets more distinct value combinations than an eighth of the rows (then row by row is as good).
 */
export function fastClosureFilter(t: ColumnTable, fn: (d: unknown, $: unknown) => unknown): ColumnTable | undefined {
  const names = foldableColumns(fn);
  if (!names) return undefined;
  const keys: Array<{ codes: Int32Array; card: number }> = [];
  for (const name of names) {
    const src = sourceOf(t, name);
    if (!src || (src.kind === 'num' && manyValues(src.values))) return undefined;
    keys.push(src.kind === 'dict' ? keyCodes(src) : exactCodes(src));
  }
  let cells = 1;
  for (const k of keys) cells *= k.card;
  if (cells > Number.MAX_SAFE_INTEGER) return undefined;
  const params = t.params();
  const cols = names.map((name) => t.column(name)!);
  const n = t.totalRows();
  const limit = Math.max(64, n >> 3);
  const dense = cells <= 1 << 22 ? new Int8Array(cells).fill(-1) : null;
  const sparse = dense ? null : new SafeMap<number, number>();
  const keep = new BitSet(n);
  let combos = 0;
  const a = keys[0].codes;
  const b = keys.length > 1 ? keys[1].codes : null;
  const c = keys.length > 2 ? keys[2].codes : null;
  const ca = keys[0].card;
  const cb = keys.length > 1 ? keys[1].card : 1;
  const bits = t.mask();
  try {
    for (let i = bits ? bits.next(0) : 0; i >= 0 && i < n; i = bits ? bits.next(i + 1) : i + 1) {
      const code = a[i] + (b ? ca * (b[i] + (c ? cb * c[i] : 0)) : 0);
      let r = dense ? dense[code] : (sparse!.get(code) ?? -1);
      if (r < 0) {
        if (++combos > limit) return undefined;
        // the closure itself, on a row holding only the columns it reads (values of this row)
        const d = ObjectCreate(null) as Record<string, unknown>;
        for (let k = 0; k < names.length; k++) d[names[k]] = cols[k].at(i);
        r = fn(d, params) ? 1 : 0;
        if (dense) dense[code] = r;
        else sparse!.set(code, r);
      }
      if (r) keep.set(i);
    }
  } catch {
    return undefined; // the row-by-row path throws its own error
  }
  return t.create({ filter: keep });
}
