/**
 * The truth value, per table row, of a pure row callback in a chain on objects() (data/rowChain.ts):
 *   t.objects().filter(r => r.m > 2).length
 *   rows.filter(r => r['Woman Owned'] === 'Y' && r.Phase !== 'Phase I').length
 * evaluated a column at a time by derive's evaluation (fast/deriveEval.ts) instead of one call per row
 * over a reused row. Taken only for an arrow of one plain parameter whose body (an expression or one
 * `return`) reads nothing but `r.F` / `r['F']` (F a column of the table that is a number, integer,
 * boolean or dictionary column: not a date, whose row value is an object, nor long text), string,
 * number and boolean literals and the operators: no other name (even `undefined` may be bound), no
 * call, no `this`. Such a callback cannot run user code, throw or see anything, so its value at a row
 * is the operator applied to the row's values, whether or when the callback runs; anything else, a
 * give-up of the evaluation, or an operator that throws answers undefined (the chain then calls the
 * callback over the reused row, as before).
 */
import type { ColumnTable } from 'arquero';
import { expressionBody } from '../closure/arrowSource.js';
import { LazyColumn } from '../data/lazyColumn.js';
import { evalNode, truthy } from './deriveEval.js';
import type { Env } from './deriveVec.js';
import type { Node } from './node.js';
import { visibleRows } from './source.js';

/**
 * The callback's truth value at every table row (a byte each), or undefined when it is not such a
 * callback; with `keptOnly`, only when the session kept it (a link of few rows: a pass over every
 * table row would not pay, reading kept bytes does).
 */
export function rowTruth(t: ColumnTable, cb: unknown, keptOnly = false): Uint8Array | undefined {
  const fn = expressionBody(cb, 1);
  if (!fn) return undefined;
  const tree = convert(t, fn.body, fn.params[0]!);
  if (!tree) return undefined;
  const env: Env = { t, n: t.totalRows(), rows: visibleRows(t, false) };
  const columns = env.rows === null ? columnsOf(t, tree, []) : null;
  const known = columns && keptTruth('truth', fn.body, columns, env.n);
  if (known) return known as Uint8Array;
  if (keptOnly) return undefined;
  try {
    const truth = truthOf(env, tree);
    if (columns) keepTruth('truth', fn.body, columns, env.n, truth);
    return truth;
  } catch {
    return undefined; // a give-up, or an operator that threw at a row: the callback runs as written
  }
}

/**
 * The truth bytes of the last few callbacks over every row of a table, kept for the session (session
 * 19), and the addends of the last few reduce callbacks (session 22): by the callback's body
 * (closure/arrowSource.ts hands the same tree for the same source text), the column objects its
 * fields are (host columns, and derived columns kept by fast/derive.ts: none ever changes) and the
 * row count. Never handed out: the chains only read them.
 */
interface KeptTruth {
  kind: 'truth' | 'add';
  body: Node;
  columns: unknown[];
  n: number;
  truth: Uint8Array | RowAddends;
}

const kept: KeptTruth[] = [];
const KEEP_TRUTHS = 6;
const KEEP_ADDENDS_ROWS = 1 << 22;

function keptTruth(
  kind: KeptTruth['kind'],
  body: Node,
  columns: unknown[],
  n: number,
): Uint8Array | RowAddends | undefined {
  for (let i = 0; i < kept.length; i++) {
    const k = kept[i]!;
    if (k.kind !== kind || k.body !== body || k.n !== n || k.columns.length !== columns.length) continue;
    let same = true;
    for (let j = 0; j < columns.length; j++) if (k.columns[j] !== columns[j]) same = false;
    if (same) return k.truth;
  }
  return undefined;
}

function keepTruth(
  kind: KeptTruth['kind'],
  body: Node,
  columns: unknown[],
  n: number,
  truth: Uint8Array | RowAddends,
): void {
  if (kept.length >= KEEP_TRUTHS) kept.length = 0;
  kept[kept.length] = { kind, body, columns, n, truth };
}

/** The column objects the converted tree reads, in tree order. */
function columnsOf(t: ColumnTable, node: Node, out: unknown[]): unknown[] {
  if (node.type === 'Column') {
    out[out.length] = t.column(node.name as string);
    return out;
  }
  for (const key of ['left', 'right', 'argument', 'test', 'consequent', 'alternate'])
    if (node[key] && typeof node[key] === 'object') columnsOf(t, node[key] as Node, out);
  return out;
}

/**
 * The truth value of `node` at every row. `&&`, `||`, `!` and `?:` only pass their operands' truth
 * values on (ToBoolean(a && b) is ToBoolean(a) && ToBoolean(b)), so they combine bytes; no operand in
 * the class can throw or run code, so evaluating both sides of `&&` where the code would stop at the
 * left changes nothing. Any other node: its values, then their truth (derive's evaluation).
 */
function truthOf(env: Env, node: Node): Uint8Array {
  if (node.type === 'LogicalExpression' && (node.operator === '&&' || node.operator === '||')) {
    const a = truthOf(env, node.left as Node);
    const b = truthOf(env, node.right as Node);
    const out = new Uint8Array(env.n);
    if (node.operator === '&&') bothInto(a, b, out);
    else eitherInto(a, b, out);
    return out;
  }
  if (node.type === 'UnaryExpression' && node.operator === '!') {
    const a = truthOf(env, node.argument as Node);
    const out = new Uint8Array(env.n);
    notInto(a, out);
    return out;
  }
  if (node.type === 'ConditionalExpression') {
    const c = truthOf(env, node.test as Node);
    const a = truthOf(env, node.consequent as Node);
    const b = truthOf(env, node.alternate as Node);
    const out = new Uint8Array(env.n);
    chooseInto(c, a, b, out);
    return out;
  }
  return truthy(env, evalNode(env, node, {}));
}

// Each loop in a function that ends with it (docs/architecture.md, "Inside the prelude"); every
// truth array holds 0 or 1 (truthy's answers).
function bothInto(a: Uint8Array, b: Uint8Array, out: Uint8Array): void {
  for (let i = 0; i < out.length; i++) out[i] = a[i]! & b[i]!;
}

function eitherInto(a: Uint8Array, b: Uint8Array, out: Uint8Array): void {
  for (let i = 0; i < out.length; i++) out[i] = a[i]! | b[i]!;
}

function notInto(a: Uint8Array, out: Uint8Array): void {
  for (let i = 0; i < out.length; i++) out[i] = a[i]! ^ 1;
}

function chooseInto(c: Uint8Array, a: Uint8Array, b: Uint8Array, out: Uint8Array): void {
  for (let i = 0; i < out.length; i++) out[i] = c[i] ? a[i]! : b[i]!;
}

/** What a reduce callback `(s, r) => s + E` adds at each table row: a number, or numbers with nulls (null adds 0). */
export type RowAddends = number | { v: Float64Array; valid: Uint8Array | null };

/**
 * For a reduce callback `(s, r) => s + E` (an arrow of two plain parameters, E in the class above and
 * not naming `s`), what it adds at every table row when E is a number there (or null, which `+` reads
 * as 0): from a number, the same sums in the same order as the callback's; undefined otherwise
 * (and for a link of too few rows `m` for a pass over every table row to pay, unless kept).
 */
export function rowAddends(t: ColumnTable, cb: unknown, m: number): RowAddends | undefined {
  const fn = expressionBody(cb, 2);
  if (!fn) return undefined;
  const [acc, row] = fn.params as [string, string];
  if (acc === row) return undefined;
  const body = fn.body;
  if (body.type !== 'BinaryExpression' || body.operator !== '+') return undefined;
  const left = body.left as Node;
  if (left.type !== 'Identifier' || left.name !== acc) return undefined;
  // any mention of `s` in E is a name convert refuses
  const tree = convert(t, body.right as Node, row);
  if (!tree) return undefined;
  const env: Env = { t, n: t.totalRows(), rows: visibleRows(t, false) };
  // kept as the truth bytes are (9 bytes a row: only for tables up to KEEP_ADDENDS_ROWS rows)
  const columns = env.rows === null ? columnsOf(t, tree, []) : null;
  const known = columns && keptTruth('add', body, columns, env.n);
  if (known !== undefined && known !== null) return known as RowAddends;
  // a pass over every table row for a link of `m` rows: when it is kept for the next run (a re-run reads
  // it), from a 32nd of the rows; else from a quarter
  if (m * (columns !== null && env.n <= KEEP_ADDENDS_ROWS ? 32 : 4) <= env.n) return undefined;
  try {
    const out = evalNode(env, tree, {});
    const add: RowAddends | undefined =
      out.k === 'const'
        ? typeof out.value === 'number'
          ? out.value
          : undefined
        : out.k === 'num'
          ? { v: out.v, valid: out.valid }
          : undefined;
    if (columns && add !== undefined && env.n <= KEEP_ADDENDS_ROWS) keepTruth('add', body, columns, env.n, add);
    return add;
  } catch {
    return undefined;
  }
}

/** Whether column `name` of `t` is one whose row value derive's evaluation reads as the row holds it. */
export function readable(t: ColumnTable, name: string): boolean {
  if (name === '__proto__') return false;
  const col = t.column(name) as unknown;
  if (!(col instanceof LazyColumn) || col.length !== t.totalRows() || col.type === 'date') return false;
  const kind = col.kind;
  return kind === 'float64' || kind === 'dict' || kind === 'bool';
}

/** The body as derive's tree (`r.F` a Column node), or undefined for anything outside the class. */
function convert(t: ColumnTable, node: Node, param: string): Node | undefined {
  switch (node.type) {
    case 'MemberExpression': {
      const o = node.object as Node;
      const p = node.property as Node;
      if (node.optional || o.type !== 'Identifier' || o.name !== param) return undefined;
      const key = node.computed ? (p.type === 'Literal' ? p.value : undefined) : p.name;
      return typeof key === 'string' && readable(t, key) ? { type: 'Column', name: key } : undefined;
    }
    case 'Literal': {
      const v = node.value;
      const plain = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null;
      return plain && !node.regex && node.bigint === undefined ? node : undefined;
    }
    case 'BinaryExpression':
    case 'LogicalExpression': {
      const left = convert(t, node.left as Node, param);
      const right = convert(t, node.right as Node, param);
      return left && right ? { type: node.type, operator: node.operator, left, right } : undefined;
    }
    case 'UnaryExpression': {
      const argument = convert(t, node.argument as Node, param);
      return argument ? { type: node.type, operator: node.operator, argument } : undefined;
    }
    case 'ConditionalExpression': {
      const [test, consequent, alternate] = [node.test, node.consequent, node.alternate].map((x) =>
        convert(t, x as Node, param),
      );
      return test && consequent && alternate ? { type: node.type, test, consequent, alternate } : undefined;
    }
    default:
      return undefined;
  }
}
