/**
 * Plans a filter predicate from Arquero's own parse tree (the tree Arquero compiles today):
 * `&&`, `||` and `!` in truth-value position are split into parts; a part that reads only one
 * dictionary column is evaluated once per dictionary entry with Arquero's compiled code for that
 * part (a lookup table by code); a comparison of a host number column with a constant runs on the
 * Float64Array; any other part runs Arquero's compiled code per row. Every part is Arquero's own
 * generated code or a plain JavaScript operator, so the answer is the same by construction.
 */
import { codegen } from 'arquero/src/expression/codegen.js';
import { compile } from 'arquero/src/expression/compile.js';
import { ObjectCreate } from '../intrinsics.js';
import { sourceOf } from './source.js';
import type { ColumnTable } from 'arquero';

/** A node of Arquero's expression tree. */
export type Node = { type: string; [key: string]: unknown };

/** A row test over backing row indices. */
export type RowTest = (row: number) => unknown;

/** The predicate plan: the row test and whether any part avoided Arquero's per-row code. */
export interface Plan { test: RowTest; fast: boolean }

/** Arquero (and prelude) functions with no state or randomness: safe to evaluate once per entry. */
const PURE = new Set(('bin equal recode sequence compact concat includes indexof join lastindexof length pluck reverse slice '
  + 'parse_json to_json abs acos acosh asin asinh atan atan2 atanh cbrt ceil clz32 cos cosh degrees exp expm1 floor fround greatest '
  + 'is_finite is_nan least log log10 log1p log2 pow radians round sign sin sinh sqrt tan tanh trunc entries has keys object values '
  + 'endswith lower match normalize padend padstart parse_float parse_int repeat replace split startswith substring trim upper '
  + 'contains strip len isna notna').split(' '));

/** Node types a per-entry part may contain (plus Column, Function and Parameter, checked apart). */
const PLAIN = new Set(['Literal', 'Constant', 'BinaryExpression', 'LogicalExpression', 'UnaryExpression', 'ConditionalExpression',
  'CallExpression', 'ArrayExpression', 'ObjectExpression', 'Property', 'TemplateLiteral', 'TemplateElement', 'MemberExpression', 'Identifier']);

const COMPARE = new Set(['===', '!==', '==', '!=', '<', '<=', '>', '>=']);

/** Columns read by `node`, or null when it holds anything a per-entry evaluation must not fold. */
function columnsOf(node: Node, out: Set<string>): Set<string> | null {
  if (node.type === 'Column') { out.add(node.name as string); return out; }
  if (node.type === 'Function') return PURE.has(node.name as string) ? out : null;
  if (node.type === 'Parameter') return out;
  if (!PLAIN.has(node.type)) return null;
  for (const [key, v] of Object.entries(node)) {
    if (key === 'type') continue;
    // a member name (d.x.length) or object key is an Identifier that is not a variable
    if (node.type === 'MemberExpression' && key === 'property' && !node.computed) continue;
    if (node.type === 'Property' && key === 'key' && !node.computed) continue;
    const kids = Array.isArray(v) ? v : [v];
    for (const c of kids) {
      if (c && typeof c === 'object' && typeof (c as Node).type === 'string') {
        if ((c as Node).type === 'Identifier' && !(node.type === 'MemberExpression' && key === 'property')) return null;
        if (!columnsOf(c as Node, out)) return null;
      }
    }
  }
  return out;
}

/** The plan of `node` in truth-value position. */
export function plan(t: ColumnTable, node: Node, params: unknown): Plan {
  const data = t.data() as Record<string, unknown>;
  if (node.type === 'LogicalExpression' && (node.operator === '&&' || node.operator === '||')) {
    const l = plan(t, node.left as Node, params);
    const r = plan(t, node.right as Node, params);
    const a = l.test;
    const b = r.test;
    return { test: node.operator === '&&' ? (i) => a(i) && b(i) : (i) => a(i) || b(i), fast: l.fast || r.fast };
  }
  if (node.type === 'UnaryExpression' && node.operator === '!') {
    const p = plan(t, node.argument as Node, params);
    const a = p.test;
    return { test: (i) => !a(i), fast: p.fast };
  }
  const f = compile.expr(codegen(node, { index: 'row' }), params);
  const cols = columnsOf(node, new Set());
  if (cols && cols.size === 1) {
    const name = [...cols][0];
    const src = sourceOf(t, name);
    if (src?.kind === 'dict') {
      // once per dictionary entry (index dict.length stands for null), then a lookup by code
      const fake = ObjectCreate(null) as Record<string, unknown>;
      const size = src.dict.length;
      fake[name] = [...src.dict, null];
      const lut = new Uint8Array(size + 1);
      for (let k = 0; k <= size; k++) lut[k] = f(k, fake) ? 1 : 0;
      const codes = src.codes;
      return { test: (i) => lut[codes[i] < 0 ? size : codes[i]], fast: true };
    }
    if (src?.kind === 'num' && src.type !== 'date') {
      const cmp = numericCompare(node, name, src.values, src.valid, f);
      if (cmp) return { test: cmp, fast: true };
    }
  }
  if (cols && cols.size === 0) {
    const v = f(0, data) ? 1 : 0;
    return { test: () => v, fast: false }; // a constant alone gains nothing
  }
  return { test: (i) => f(i, data), fast: false };
}

/** `column OP constant` (either side) on a number column's Float64Array, with null's own answer. */
function numericCompare(node: Node, name: string, values: Float64Array, valid: Uint8Array, f: (row: number, data: unknown) => unknown): RowTest | undefined {
  if (node.type !== 'BinaryExpression' || !COMPARE.has(node.operator as string)) return undefined;
  const left = node.left as Node;
  const right = node.right as Node;
  const colLeft = left.type === 'Column';
  const other = colLeft ? right : left;
  if ((colLeft ? left : right).type !== 'Column' || other.type === 'Column') return undefined;
  const c = constant(other);
  if (c === undefined) return undefined;
  // what the expression gives for a null value, by Arquero's own code
  const nullData = ObjectCreate(null) as Record<string, unknown>;
  nullData[name] = [null];
  const nullRes = f(0, nullData) ? 1 : 0;
  const op = node.operator as string;
  const test = binary(op, colLeft, c, values);
  return (i) => (valid[i] ? test(i) : nullRes);
}

/** A literal's value (a number, string, boolean or null; -literal for negative numbers), else undefined. */
function constant(node: Node): unknown {
  if (node.type === 'Literal') {
    const v = node.value;
    return v === null || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' ? v : undefined;
  }
  if (node.type !== 'UnaryExpression' || node.operator !== '-' || (node.argument as Node).type !== 'Literal') return undefined;
  const v = (node.argument as Node).value;
  return typeof v === 'number' ? -v : undefined;
}

function binary(op: string, colLeft: boolean, c: unknown, v: Float64Array): RowTest {
  const k = c as number;
  if (colLeft) {
    switch (op) {
      case '===': return (i) => v[i] === k;
      case '!==': return (i) => v[i] !== k;
      case '==': return (i) => v[i] == k; // eslint-disable-line eqeqeq
      case '!=': return (i) => v[i] != k; // eslint-disable-line eqeqeq
      case '<': return (i) => v[i] < k;
      case '<=': return (i) => v[i] <= k;
      case '>': return (i) => v[i] > k;
      default: return (i) => v[i] >= k;
    }
  }
  switch (op) {
    case '===': return (i) => k === v[i];
    case '!==': return (i) => k !== v[i];
    case '==': return (i) => k == v[i]; // eslint-disable-line eqeqeq
    case '!=': return (i) => k != v[i]; // eslint-disable-line eqeqeq
    case '<': return (i) => k < v[i];
    case '<=': return (i) => k <= v[i];
    case '>': return (i) => k > v[i];
    default: return (i) => k >= v[i];
  }
}
