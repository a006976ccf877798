/**
 * Evaluates a filter predicate from Arquero's own parse tree (the tree Arquero compiles today) as
 * byte masks over the rows: `&&`, `||` and `!` in truth-value position combine masks, and the right
 * side of `&&`/`||` is evaluated only on the rows where JavaScript would evaluate it (so an
 * expression that throws on some rows still throws exactly where it did). Parts:
 * - reading only one dictionary column: Arquero's compiled code for the part runs once per
 *   dictionary entry (and once for null), then a lookup by code;
 * - `number column OP number` (either side): a loop over the Float64Array; `d.X != null` (`==`,
 *   `!=`, `===`, `!==` null, either side) on a number or date column: its presence bytes;
 * - `d.Abstract === 'N/A'`, `d.Abstract == null`, `d.Abstract` alone (long text against a string or
 *   null, or its truth value): the host compares the bytes, or reads the stored lengths for null and
 *   empty rows (bridge.textScan), no row decoded;
 * - the length of long text (`op.length(d.Abstract) > 1500`, `d.Abstract.length < 10`): the host's
 *   UTF-16 counts (bridge.textScan `units`, fast/textUnits.ts), no row decoded;
 * - `op.includes(d.Abstract, 'x')` or `op.includes(op.lower(d.Title), 'x')` (a lowercase literal):
 *   the host searches the bytes (bridge.textScan `contains`, folded as `toLowerCase` for the second);
 * - reading long text otherwise (`op.lower(d.Title) === 'x'`, `op.indexof(d.Abstract, 'x') > 9`): Arquero's
 *   compiled code per row, on the text pages themselves (fast/columnChunks.ts), not through
 *   `column.at(row)`;
 * - anything else: Arquero's compiled code, per row.
 * In `A && B` where A searches text and B is a cheap test, and neither can throw (fast/cheapFirst.ts),
 * B runs first and A only on B's rows: the same rows, less searching.
 * Every part is Arquero's own generated code or a plain JavaScript operator on the same values.
 */
import { codegen } from 'arquero/src/expression/codegen.js';
import { compile } from 'arquero/src/expression/compile.js';
import { ObjectCreate } from '../intrinsics.js';
import { sourceOf } from './source.js';
import { columnChunks, readsTextPages } from './columnChunks.js';
import { cheapFirst } from './cheapFirst.js';
import { typedLeaf } from './typedLeaf.js';
import { readsTextLength } from './textUnits.js';
import { stillInstalled } from './deriveFunctions.js';
import type { Node } from './node.js';
import { LazyColumn } from '../data/lazyColumn.js';
import { PAGE_SHIFT } from '../data/pagedText.js';

const PAGE_ROWS = 1 << PAGE_SHIFT;
import type { ColumnTable } from 'arquero';

/** A node of Arquero's expression tree. */

/** Evaluation state: the backing row count and whether any part avoided per-row code. */
export interface Ctx {
  t: ColumnTable;
  n: number;
  params: unknown;
  fast: boolean;
}

/** Arquero (and prelude) functions with no state or randomness: safe to evaluate once per entry. */
const PURE = new Set(
  (
    'bin equal recode sequence compact concat includes indexof join lastindexof length pluck reverse slice ' +
    'parse_json to_json abs acos acosh asin asinh atan atan2 atanh cbrt ceil clz32 cos cosh degrees exp expm1 floor fround greatest ' +
    'is_finite is_nan least log log10 log1p log2 pow radians round sign sin sinh sqrt tan tanh trunc entries has keys object values ' +
    'endswith lower match normalize padend padstart parse_float parse_int repeat replace split startswith substring trim upper ' +
    'contains strip len isna notna'
  ).split(' '),
);

/** Node types a per-entry part may contain (plus Column, Function and Parameter, checked apart). */
const PLAIN = new Set([
  'Literal',
  'Constant',
  'BinaryExpression',
  'LogicalExpression',
  'UnaryExpression',
  'ConditionalExpression',
  'CallExpression',
  'ArrayExpression',
  'ObjectExpression',
  'Property',
  'TemplateLiteral',
  'TemplateElement',
  'MemberExpression',
]);

/** Comparison operators on two numbers, column on the left (`==` is `===` for numbers). */
const NORMAL: Record<string, string> = {
  '===': '===',
  '!==': '!==',
  '==': '===',
  '!=': '!==',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};
/** The same with the column on the right: `c < v` is `v > c`. */
const MIRROR: Record<string, string> = {
  '===': '===',
  '!==': '!==',
  '==': '===',
  '!=': '!==',
  '<': '>',
  '<=': '>=',
  '>': '<',
  '>=': '<=',
};

/** Columns read by `node`, or null when it holds anything a per-entry evaluation must not fold. */
function columnsOf(node: Node, out: Set<string>): Set<string> | null {
  if (node.type === 'Column') {
    out.add(node.name as string);
    return out;
  }
  if (node.type === 'Function') return PURE.has(node.name as string) ? out : null;
  if (node.type === 'Parameter') return out;
  if (!PLAIN.has(node.type)) return null;
  for (const [key, v] of Object.entries(node)) {
    if (key === 'type') continue;
    // a member name (d.x.length) or an object key is an Identifier, not a variable
    if (
      (node.type === 'MemberExpression' && key === 'property' && !node.computed) ||
      (node.type === 'Property' && key === 'key' && !node.computed)
    )
      continue;
    for (const c of Array.isArray(v) ? v : [v]) {
      if (c && typeof c === 'object' && typeof (c as Node).type === 'string' && !columnsOf(c as Node, out)) return null;
    }
  }
  return out;
}

/**
 * The truth value of `node` (1/0) for each row where `sel[row]` is 1 (0 elsewhere).
 * @param sel rows to evaluate: the visible rows, narrowed by enclosing `&&`/`||`
 */
export function evaluate(ctx: Ctx, node: Node, sel: Uint8Array): Uint8Array {
  const n = ctx.n;
  if (node.type === 'LogicalExpression' && (node.operator === '&&' || node.operator === '||')) {
    if (node.operator === '&&' && cheapFirst(ctx.t, node.left as Node, node.right as Node)) {
      // a text search on the left, a cheap test on the right, neither can throw: same rows either way
      return evaluate(ctx, node.left as Node, evaluate(ctx, node.right as Node, sel));
    }
    const a = evaluate(ctx, node.left as Node, sel);
    if (node.operator === '&&') return evaluate(ctx, node.right as Node, a);
    const rest = new Uint8Array(n);
    for (let i = 0; i < n; i++) rest[i] = sel[i] & (a[i] ^ 1);
    const b = evaluate(ctx, node.right as Node, rest);
    for (let i = 0; i < n; i++) b[i] |= a[i];
    return b;
  }
  if (node.type === 'UnaryExpression' && node.operator === '!') {
    const a = evaluate(ctx, node.argument as Node, sel);
    for (let i = 0; i < n; i++) a[i] = sel[i] & (a[i] ^ 1);
    return a;
  }
  return leaf(ctx, node, sel);
}

function leaf(ctx: Ctx, node: Node, sel: Uint8Array): Uint8Array {
  const { t, n } = ctx;
  const out = new Uint8Array(n);
  const f = compile.expr(codegen(node, { index: 'row' }), ctx.params);
  const cols = columnsOf(node, new Set());
  if (cols && cols.size === 1) {
    const name = [...cols][0];
    const src = sourceOf(t, name);
    if (src?.kind === 'dict') {
      // once per dictionary entry; lut[0] is null, lut[k + 1] is entry k
      const fake = ObjectCreate(null) as Record<string, unknown>;
      fake[name] = [null, ...src.dict];
      const lut = new Uint8Array(src.dict.length + 1);
      for (let k = 0; k < lut.length; k++) lut[k] = f(k, fake) ? 1 : 0;
      lookUpCodes(src.codes, lut, sel, out);
      ctx.fast = true;
      return out;
    }
    if (src?.kind === 'num' && src.type !== 'date' && numeric(node, name, src.values, src.valid, f, sel, out)) {
      ctx.fast = true;
      return out;
    }
  }
  if (hostIncludes(ctx, node, f, sel, out)) return out;
  if (hostEquals(ctx, node, f, sel, out)) return out;
  // the length of long text (`op.length(d.Abstract) > 1500`): the host's counts, no page read
  const counted = readsTextLength(node) ? typedLeaf(t, node, ctx.params, sel) : null;
  if (counted) {
    ctx.fast = true;
    return counted;
  }
  if (textChunks(ctx, node, f, sel, out)) return out;
  const typed = typedLeaf(t, node, ctx.params, sel); // as a derive would compute it (fast/typedLeaf.ts)
  if (typed) {
    ctx.fast = true;
    return typed;
  }
  const data = t.data();
  for (let i = 0; i < n; i++) if (sel[i] && f(i, data)) out[i] = 1;
  return out;
}

/** Every column a node reads. */
function readColumns(node: Node, out: Set<string>): Set<string> {
  if (node.type === 'Column') out.add(node.name as string);
  for (const [key, v] of Object.entries(node)) {
    if (key === 'type') continue;
    for (const c of Array.isArray(v) ? v : [v])
      if (c && typeof c === 'object' && typeof (c as Node).type === 'string') readColumns(c as Node, out);
  }
  return out;
}

/**
 * A part reading long text: the compiled code per selected row, in row order as the plain loop,
 * with `data` holding each chunk's text page (and the other columns' values for the same rows).
 * The compiled code reads a column only as `data.X.at(row)` / `data.X[row]`, so the chunk's arrays
 * with the row number relative to the chunk give the same values. False when it does not apply.
 */
function textChunks(
  ctx: Ctx,
  node: Node,
  f: (row: number, data: unknown) => unknown,
  sel: Uint8Array,
  out: Uint8Array,
): boolean {
  const names = [...readColumns(node, new Set())];
  if (!names.length || !readsTextPages(ctx.t, names)) return false;
  const chunks = columnChunks(ctx.t, names, true);
  if (!chunks) return false;
  const data = ObjectCreate(null) as Record<string, unknown>;
  const any = (lo: number, hi: number) => {
    for (let i = lo; i < hi; i++) if (sel[i]) return true;
    return false;
  };
  chunks((lo, hi, arrays) => {
    for (let k = 0; k < names.length; k++) data[names[k]] = arrays[k];
    for (let i = lo; i < hi; i++) if (sel[i] && f(i - lo, data)) out[i] = 1;
  }, any);
  ctx.fast = true;
  return true;
}

/**
 * `op.includes(d.X, 'literal')` (or of `op.lower(d.X)`, includedIn) on a long-text column the host can scan (bridge.textScan): each page
 * the session does not hold is searched on the host's UTF-8 bytes, the others by the compiled code
 * on the page's rows; a null row takes what the compiled code gives for null. False when it does not apply.
 */
function hostIncludes(
  ctx: Ctx,
  node: Node,
  f: (row: number, data: unknown) => unknown,
  sel: Uint8Array,
  out: Uint8Array,
): boolean {
  if (node.type !== 'CallExpression') return false;
  const callee = node.callee as Node;
  const args = node.arguments as Node[];
  if (
    callee.type !== 'Function' ||
    callee.name !== 'includes' ||
    args.length !== 2 ||
    args[1]!.type !== 'Literal' ||
    typeof args[1]!.value !== 'string'
  )
    return false;
  const needle = args[1]!.value as string;
  const column = includedIn(args[0]!, needle);
  if (!column || !stillInstalled('includes')) return false;
  const { name, fold } = column;
  const pages = hostScannedPages(ctx, name);
  if (!pages) return false;
  const data = ObjectCreate(null) as Record<string, unknown>;
  data[name] = [null];
  const z = f(0, data) ? 1 : 0;
  // the loop ends its own function: code after a loop in the same function deopted the loop's
  // compiled code on every warm call (docs/architecture.md, "Inside the prelude")
  includesPages(pages, name, needle, fold, f, data, z, ctx.n, sel, out);
  ctx.fast = true;
  return true;
}

/** hostIncludes' answer page by page: the host's scan of a page, or the compiled code on the page's rows. */
function includesPages(
  pages: NonNullable<ReturnType<typeof hostScannedPages>>,
  name: string,
  needle: string,
  fold: 'none' | 'lower',
  f: (row: number, data: unknown) => unknown,
  data: Record<string, unknown>,
  z: number,
  n: number,
  sel: Uint8Array,
  out: Uint8Array,
): void {
  for (let p = 0, lo = 0; lo < n; p++) {
    const hi = Math.min(n, lo + PAGE_ROWS);
    if (anySelected(sel, lo, hi)) {
      const got = pages.scan(p, { op: 'contains', needle, fold });
      if (got) {
        for (let i = lo; i < hi; i++) {
          const g = got[i - lo]!;
          out[i] = sel[i] & (g === 2 ? z : g);
        }
      } else {
        data[name] = pages.page(p);
        for (let i = lo; i < hi; i++) if (sel[i] && f(i - lo, data)) out[i] = 1;
      }
    }
    lo = hi;
  }
}

/**
 * The column `op.includes` searches and how case folds: `d.X` as it is, or `op.lower(d.X)` (Arquero's
 * `lower`, still the installed one) when the needle is its own lowercase: the row's
 * `toLowerCase().includes(needle)`, which is textScan's `lower` fold. Null otherwise.
 */
function includedIn(arg: Node, needle: string): { name: string; fold: 'none' | 'lower' } | null {
  if (arg.type === 'Column') return { name: arg.name as string, fold: 'none' };
  if (arg.type !== 'CallExpression' || needle !== needle.toLowerCase()) return null;
  const callee = arg.callee as Node;
  const inner = arg.arguments as Node[];
  if (callee.type !== 'Function' || callee.name !== 'lower' || inner.length !== 1 || inner[0]!.type !== 'Column')
    return null;
  return stillInstalled('lower') ? { name: inner[0]!.name as string, fold: 'lower' } : null;
}

/** Equality operators a long-text column may be compared with a literal by (hostEquals). */
const EQUALITY = new Set(['===', '==', '!==', '!=']);

/** The text pages of column `name` when the host can scan them for all `ctx.n` rows, else null. */
function hostScannedPages(ctx: Ctx, name: string) {
  const col = ctx.t.column(name) as unknown;
  if (!(col instanceof LazyColumn)) return null;
  return col.hostScanPages(ctx.n);
}

/** Whether any row in [lo, hi) is still selected (a page none of whose rows is left is not scanned). */
function anySelected(sel: Uint8Array, lo: number, hi: number): boolean {
  for (let i = lo; i < hi; i++) if (sel[i]) return true;
  return false;
}

/**
 * `d.X === 'literal'`, `d.X == null` (`===`, `==`, `!==`, `!=`, either side) or `d.X` alone (its
 * truth value; `!d.X` is its negation) on a long-text column the host can scan: each page is
 * answered by the host (bridge.textScan: `equals` compares the rows of the literal's byte length;
 * for null and truth values the stored lengths say which rows are null or empty, no text read),
 * a page the session holds too (reading each row's string there costs a memory access per row,
 * ~15 ms a column), except for a null test alone, which a held page answers by the row pointers
 * (heldEquals when the host leaves a page to the guest). What the expression
 * gives for a null row, for the literal, for an empty and for any other string is computed once, by
 * the compiled code itself (every other string compares alike). False when it does not apply.
 */
function hostEquals(
  ctx: Ctx,
  node: Node,
  f: (row: number, data: unknown) => unknown,
  sel: Uint8Array,
  out: Uint8Array,
): boolean {
  let column: Node | null = null;
  let needle: string | null = null;
  if (node.type === 'Column') column = node;
  else if (node.type === 'BinaryExpression' && EQUALITY.has(node.operator as string)) {
    const left = node.left as Node;
    const right = node.right as Node;
    column = left.type === 'Column' ? left : right.type === 'Column' ? right : null;
    const literal = column === left ? right : left;
    if (!column || literal.type !== 'Literal' || (typeof literal.value !== 'string' && literal.value !== null))
      return false;
    needle = literal.value as string | null;
  } else return false;
  const name = column.name as string;
  const pages = hostScannedPages(ctx, name);
  if (!pages) return false;
  const data = ObjectCreate(null) as Record<string, unknown>;
  const at = (v: string | null) => {
    data[name] = [v];
    return f(0, data) ? 1 : 0;
  };
  const missing = at(null);
  // with a literal: equal / any other string; without: an empty / a non-empty string
  const yes = needle === null ? at('') : at(needle);
  const no = needle === null ? at(' ') : at(`${needle}\u0000`);
  const n = ctx.n;
  for (let p = 0, lo = 0; lo < n; p++) {
    const hi = Math.min(n, lo + PAGE_ROWS);
    if (anySelected(sel, lo, hi)) {
      // a null test alone (`d.X == null`: every string answers alike) reads no string of a held
      // page; any other test would read each row's length there: the host answers it
      const nullOnly = yes === no;
      const got = pages.scan(p, needle === null ? { op: 'len' } : { op: 'equals', needle }, !nullOnly);
      if (got && needle === null) {
        for (let i = lo; i < hi; i++) {
          const g = got[i - lo]!;
          out[i] = sel[i] & (g < 0 ? missing : g === 0 ? yes : no);
        }
      } else if (got) {
        for (let i = lo; i < hi; i++) {
          const g = got[i - lo]!;
          out[i] = sel[i] & (g === 2 ? missing : g === 1 ? yes : no);
        }
      } else {
        const rows = pages.page(p);
        data[name] = rows;
        if (nullOnly) for (let i = lo; i < hi; i++) out[i] = sel[i] & (rows[i - lo] === null ? missing : no);
        else heldEquals(rows, lo, hi, sel, out, needle === null ? '' : needle, [missing, yes, no], (i) => f(i, data));
      }
    }
    lo = hi;
  }
  ctx.fast = true;
  return true;
}

/**
 * hostEquals on a page the session holds: each row sorted into null / equal to `match` (the literal,
 * or '' for a null test or a truth value) / any other string, and given that class's answer
 * (computed once by the compiled code), no call per row. A value that is neither a string nor null
 * (never in a page the host decoded) takes the compiled code.
 */
function heldEquals(
  rows: ReadonlyArray<unknown>,
  lo: number,
  hi: number,
  sel: Uint8Array,
  out: Uint8Array,
  match: string,
  [missing, yes, no]: [number, number, number],
  f: (rowOfPage: number) => unknown,
): void {
  for (let i = lo; i < hi; i++) {
    if (!sel[i]) continue;
    const s = rows[i - lo];
    if (s === null) out[i] = missing;
    else if (typeof s === 'string') out[i] = s === match ? yes : no;
    else out[i] = f(i - lo) ? 1 : 0;
  }
}

/** out[row] = sel[row] & lut[code + 1]: a function that ends with its loop (docs/architecture.md, "Inside the prelude"). */
function lookUpCodes(codes: Int32Array, lut: Uint8Array, sel: Uint8Array, out: Uint8Array): void {
  for (let i = 0; i < out.length; i++) out[i] = sel[i]! & lut[codes[i]! + 1]!;
}

/** `number column OP number constant` (either side) on the Float64Array; false when the shape differs. */
function numeric(
  node: Node,
  name: string,
  v: Float64Array,
  valid: Uint8Array,
  f: (row: number, data: unknown) => unknown,
  sel: Uint8Array,
  out: Uint8Array,
): boolean {
  if (node.type !== 'BinaryExpression' || !Object.hasOwn(NORMAL, node.operator as string)) return false;
  const left = node.left as Node;
  const right = node.right as Node;
  const colLeft = left.type === 'Column';
  const other = colLeft ? right : left;
  if ((colLeft ? left : right).type !== 'Column' || other.type === 'Column') return false;
  const op = (colLeft ? NORMAL : MIRROR)[node.operator as string];
  // what the expression gives for a null value, by Arquero's own code
  const nullData = ObjectCreate(null) as Record<string, unknown>;
  nullData[name] = [null];
  const z = f(0, nullData) ? 1 : 0;
  if (other.type === 'Literal' && other.value === null && (op === '===' || op === '!==')) {
    // `d.X != null` (any of ==, !=, ===, !==): every present value (a number, NaN, a Date) compares
    // with null alike, so the row's presence byte decides: Arquero's code on one value and on null
    const oneData = ObjectCreate(null) as Record<string, unknown>;
    oneData[name] = [0];
    presence(valid, f(0, oneData) ? 1 : 0, z, sel, out);
    return true;
  }
  const k = constant(other);
  if (k === undefined) return false;
  const loop = COMPARE[op];
  if (loop === undefined) return false;
  loop(v, valid, k, z, sel, out);
  return true;
}

/** out[i] = sel[i] & (valid[i] ? y : z): a comparison with null from the presence bytes. */
function presence(valid: Uint8Array, y: number, z: number, sel: Uint8Array, out: Uint8Array): void {
  for (let i = 0; i < out.length; i++) {
    const o = +(valid[i] !== 0);
    out[i] = sel[i]! & ((o & y) | (z & (o ^ 1)));
  }
}

// One loop per operator, each a function that ends with it (docs/architecture.md, "Inside the
// prelude"). Branch-free: `+(a > b)` is a 0/1 without a jump, and the row's byte is
// `sel & (valid ? test : z)` spelled with masks (`o` the valid bit, z the null row's 0/1); a jump per
// row on the outcome of a comparison of unsorted data mispredicts about every other row (about 4x
// the time of the loop over 219,590 rows, measured in plain Node 20).
type CompareLoop = (v: Float64Array, valid: Uint8Array, k: number, z: number, sel: Uint8Array, out: Uint8Array) => void;

const COMPARE: Record<string, CompareLoop> = {
  '===': (v, valid, k, z, sel, out) => {
    for (let i = 0; i < out.length; i++) {
      const o = +(valid[i] !== 0);
      out[i] = sel[i]! & ((o & +(v[i] === k)) | (z & (o ^ 1)));
    }
  },
  '!==': (v, valid, k, z, sel, out) => {
    for (let i = 0; i < out.length; i++) {
      const o = +(valid[i] !== 0);
      out[i] = sel[i]! & ((o & +(v[i] !== k)) | (z & (o ^ 1)));
    }
  },
  '<': (v, valid, k, z, sel, out) => {
    for (let i = 0; i < out.length; i++) {
      const o = +(valid[i] !== 0);
      out[i] = sel[i]! & ((o & +(v[i]! < k)) | (z & (o ^ 1)));
    }
  },
  '<=': (v, valid, k, z, sel, out) => {
    for (let i = 0; i < out.length; i++) {
      const o = +(valid[i] !== 0);
      out[i] = sel[i]! & ((o & +(v[i]! <= k)) | (z & (o ^ 1)));
    }
  },
  '>': (v, valid, k, z, sel, out) => {
    for (let i = 0; i < out.length; i++) {
      const o = +(valid[i] !== 0);
      out[i] = sel[i]! & ((o & +(v[i]! > k)) | (z & (o ^ 1)));
    }
  },
  '>=': (v, valid, k, z, sel, out) => {
    for (let i = 0; i < out.length; i++) {
      const o = +(valid[i] !== 0);
      out[i] = sel[i]! & ((o & +(v[i]! >= k)) | (z & (o ^ 1)));
    }
  },
};

/** A number literal's value (or -literal), else undefined: only number operands take the typed loop. */
function constant(node: Node): number | undefined {
  if (node.type === 'Literal') return typeof node.value === 'number' ? node.value : undefined;
  if (node.type !== 'UnaryExpression' || node.operator !== '-' || (node.argument as Node).type !== 'Literal')
    return undefined;
  const v = (node.argument as Node).value;
  return typeof v === 'number' ? -v : undefined;
}
