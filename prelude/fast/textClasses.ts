/**
 * A pure callback over one long-text value that can only tell a few kinds of value apart: null,
 * the empty string, each string literal it compares the value with, and any other string. Its
 * parameter may only stand where its truth value alone matters (the body, `!`, a `?:` test, the
 * sides of `&&`/`||`/`??` there) or as a side of `===`/`!==` against a literal or
 * `undefined`/`NaN`/`Infinity`, or of `==`/`!=` against a string, `null` or `undefined` (loose
 * equality with a number or boolean would convert the string: not taken). Then every string
 * outside the literals and the empty string gives the callback the same truth value, so each row
 * needs only its class: the host answers it from the stored lengths (null, empty) and the bytes of
 * rows as long as a literal (bridge.textScan `len` and `equals`), no row decoded in the isolate.
 * Used by fast/arrayChain.ts for `t.array('Abstract').filter(a => a == null || a === 'N/A').length`.
 */
import type { Node } from './node.js';
import { closureNode } from '../closure/arrowSource.js';
import { JSONStringify, MathMin, ReflectApply, SafeMap, SafeSet, SafeWeakMap } from '../intrinsics.js';
import { EMPTY_ROW, NULL_ROW, OTHER_ROW, rowFeatures, stringMethodsIntact, type Feature } from './textFeatures.js';

const StringToLowerCase = String.prototype.toLowerCase;
import type { TextPages } from '../data/textPages.js';
import { PAGE_SHIFT } from '../data/pagedText.js';

const PAGE_ROWS = 1 << PAGE_SHIFT;

/** The truth value the callback gives for each class of value (1/0). */
interface Classes {
  missing: number;
  empty: number;
  other: number;
  /** Each string literal compared with (the empty string among them or not). */
  literals: Map<string, number>;
  /**
   * The features the callback reads (`.length`, `.includes(lit)`...: fast/textFeatures.ts), each a
   * Feature node of `body`; when any, the truth value is the body's per row, not per class.
   */
  features: Feature[];
  body: Node;
  /** A string no literal equals, standing for every other string. */
  otherString: string;
}

/** Thrown when a feature is read of a null row: the callback as written throws there (the chain replays). */
const NULL_READ = Symbol('null read');

const STRICT = new Set(['===', '!==']);
const BINARY = new Set('=== !== == != + - * / % ** < <= > >= & | ^ << >> >>>'.split(' '));
const UNARY = new Set(['!', '-', '+', '~', 'typeof', 'void']);
const LOOSE = new Set(['==', '!=']);
const CONSTANTS: Record<string, unknown> = {
  undefined: undefined,
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
};

/** Whether `e` is the parameter (the Vec node callbackBody put in its place). */
const isParam = (e: Node) => e.type === 'Vec';

/** Whether `e` is a literal `===` may compare the value with (any primitive), or `undefined`/`NaN`/`Infinity`. */
const strictOther = (e: Node) => (e.type === 'Literal' || e.type === 'Constant') && allowed(e, false, new Set());

/** Whether `==` with `e` compares a string as `===` does: a string literal, null, undefined. */
const looseOther = (e: Node) =>
  (e.type === 'Literal' && (typeof e.value === 'string' || e.value === null)) ||
  (e.type === 'Constant' && e.name === 'undefined');

/** Whether the parameter stands only where this reads it, collecting the string literals it is compared with. */
function allowed(e: Node, truth: boolean, literals: Set<string>): boolean {
  switch (e.type) {
    case 'Vec':
      return truth;
    case 'Feature':
      return true;
    case 'Literal':
      return !e.regex && (e.value === null || (typeof e.value !== 'object' && typeof e.value !== 'bigint'));
    case 'Constant':
      return Object.hasOwn(CONSTANTS, e.name as string);
    case 'BinaryExpression': {
      const op = e.operator as string;
      if (!BINARY.has(op)) return false;
      const left = e.left as Node;
      const right = e.right as Node;
      const other = isParam(left) ? right : isParam(right) ? left : null;
      if (other && !isParam(other) && (STRICT.has(op) ? strictOther(other) : LOOSE.has(op) && looseOther(other))) {
        if (typeof other.value === 'string') literals.add(other.value);
        return true;
      }
      return allowed(left, false, literals) && allowed(right, false, literals);
    }
    case 'LogicalExpression':
      if (e.operator !== '&&' && e.operator !== '||' && e.operator !== '??') return false;
      return allowed(e.left as Node, truth, literals) && allowed(e.right as Node, truth, literals);
    case 'UnaryExpression':
      if (!UNARY.has(e.operator as string)) return false;
      return allowed(e.argument as Node, e.operator === '!', literals);
    case 'ConditionalExpression':
      return (
        allowed(e.test as Node, true, literals) &&
        allowed(e.consequent as Node, truth, literals) &&
        allowed(e.alternate as Node, truth, literals)
      );
    default:
      return false;
  }
}

/** Row `i`'s answer to each feature (fast/textFeatures.ts `rowFeatures`), for a body that reads features. */
interface RowAt {
  i: number;
  values: Array<Int32Array | Uint8Array>;
}

/**
 * The value of `e` with the parameter `v` (and, for a feature, the row `at`): the JavaScript operators
 * themselves, on primitives (none throws; a feature of a null row throws NULL_READ).
 */
function value(e: Node, v: string | null, at?: RowAt): unknown {
  switch (e.type) {
    case 'Vec':
      return v;
    case 'Feature': {
      if (v === null || !at) throw NULL_READ;
      const a = at.values[e.k as number]![at.i]!;
      return e.test ? a === 1 : a;
    }
    case 'Literal':
      return e.value;
    case 'Constant':
      return CONSTANTS[e.name as string];
    case 'LogicalExpression': {
      const a = value(e.left as Node, v, at);
      if (e.operator === '&&') return a && value(e.right as Node, v, at);
      if (e.operator === '||') return a || value(e.right as Node, v, at);
      return a ?? value(e.right as Node, v, at);
    }
    case 'ConditionalExpression':
      return value(e.test as Node, v, at) ? value(e.consequent as Node, v, at) : value(e.alternate as Node, v, at);
    case 'UnaryExpression': {
      const a = value(e.argument as Node, v, at) as number;
      switch (e.operator) {
        case '!':
          return !a;
        case '-':
          return -a;
        case '+':
          return +a;
        case '~':
          return ~a;
        case 'typeof':
          return typeof a;
        default:
          return undefined; // void
      }
    }
    default:
      return binary(
        e.operator as string,
        value(e.left as Node, v, at) as number,
        value(e.right as Node, v, at) as number,
      );
  }
}

function binary(op: string, a: number, b: number): unknown {
  switch (op) {
    case '===':
      return a === b;
    case '!==':
      return a !== b;
    case '==':
      // eslint-disable-next-line eqeqeq
      return a == b;
    case '!=':
      // eslint-disable-next-line eqeqeq
      return a != b;
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return a / b;
    case '%':
      return a % b;
    case '**':
      return a ** b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '&':
      return a & b;
    case '|':
      return a | b;
    case '^':
      return a ^ b;
    case '<<':
      return a << b;
    case '>>':
      return a >> b;
    default:
      return a >>> b;
  }
}

/** The truth value of `body` (the parameter a Vec node) for each class of value, or undefined when it can tell more apart. */
export function textClasses(body: Node): Classes | undefined {
  const found = new Set<string>();
  if (!allowed(body, true, found)) return undefined;
  // longer than every literal and not empty: a string none of the comparisons holds for
  let longest = '';
  for (const s of found) if (s.length > longest.length) longest = s;
  const otherString = `${longest}\u0000`;
  const features = featuresOf(body);
  const literals = new SafeMap<string, number>();
  if (features.length > 0) {
    // the truth value is the body's per row (textTruth): the literals only name the strings told apart
    for (const s of found) literals.set(s, 0);
    return { missing: 0, empty: 0, other: 0, literals, features, body, otherString };
  }
  const truth = (v: string | null) => (value(body, v) ? 1 : 0);
  for (const s of found) literals.set(s, truth(s));
  return { missing: truth(null), empty: truth(''), other: truth(otherString), literals, features, body, otherString };
}

/** The features `body` reads, each Feature node numbered (`k`) by its place in the list (one per distinct feature). */
function featuresOf(body: Node): Feature[] {
  const out: Feature[] = [];
  const keys: string[] = [];
  const walk = (e: Node) => {
    if (e.type === 'Feature') {
      const key = JSONStringify(e.feature);
      let k = keys.indexOf(key);
      if (k < 0) {
        k = keys.length;
        keys[k] = key;
        out[k] = e.feature as Feature;
      }
      e.k = k;
      return;
    }
    for (const c of [e.left, e.right, e.argument, e.test, e.consequent, e.alternate])
      if (c && typeof c === 'object') walk(c as Node);
  };
  walk(body);
  return out;
}

/**
 * The truth value per row of a callback with these classes over the `n` rows of `pages`: each
 * page answered by the host (stored lengths for null and empty rows, an equality scan per literal
 * whose answer differs from any other string's), a page the host leaves to the guest classified
 * from its strings. Undefined when a row is neither a string nor null.
 */
export function textTruth(c: Classes, pages: TextPages, n: number): Uint8Array | undefined {
  // a body reading features is evaluated over the string methods as loaded: a run that replaced one replays
  if (c.features.length > 0 && !stringMethodsIntact()) return undefined;
  const key = JSONStringify(c.body);
  const had = keptTruth(pages, key, n);
  if (had !== undefined) return had;
  const out = c.features.length > 0 ? rowTruth(c, pages, n) : classTruth(c, pages, n);
  if (out !== undefined) keepTruth(pages, key, n, out);
  return out;
}

/**
 * Truth values kept per column for the session, by the callback's body (its tree as JSON: the same
 * source gives the same tree, and the body alone decides each row's value from the column's text,
 * which never changes). The callers only read them (fast/arrayChain.ts copies before it ands two
 * filters; data/rowChain.ts counts and keeps positions by the array's identity).
 */
const keptTruths = new SafeWeakMap<TextPages, { n: number; truths: Map<string, Uint8Array> }>();
const truthsGet = SafeWeakMap.prototype.get;
const truthsSet = SafeWeakMap.prototype.set;
/** Bodies kept per column, and the longest column whose truths are kept (a byte a row each). */
const KEPT_TRUTHS = 16;
const KEPT_TRUTH_ROWS = 1 << 22;

function keptTruth(pages: TextPages, key: string, n: number): Uint8Array | undefined {
  const k = ReflectApply(truthsGet, keptTruths, [pages]) as { n: number; truths: Map<string, Uint8Array> } | undefined;
  return k !== undefined && k.n === n ? k.truths.get(key) : undefined;
}

function keepTruth(pages: TextPages, key: string, n: number, truth: Uint8Array): void {
  if (n > KEPT_TRUTH_ROWS) return;
  let k = ReflectApply(truthsGet, keptTruths, [pages]) as { n: number; truths: Map<string, Uint8Array> } | undefined;
  if (k === undefined || k.n !== n) {
    k = { n, truths: new SafeMap() };
    ReflectApply(truthsSet, keptTruths, [pages, k]);
  }
  if (k.truths.size >= KEPT_TRUTHS) k.truths.clear();
  k.truths.set(key, truth);
}

/** How many rows a kept truth (textTruth's answer) holds true: counted once, by the array's identity. */
export function truthCount(truth: Uint8Array, n: number): number {
  let count = ReflectApply(truthsGet, truthCounts, [truth]) as number | undefined;
  if (count !== undefined) return count;
  count = 0;
  for (let i = 0; i < n; i++) count += truth[i]!;
  ReflectApply(truthsSet, truthCounts, [truth, count]);
  return count;
}
const truthCounts = new SafeWeakMap<Uint8Array, number>();

/** textTruth of a body that reads no feature: each row's class (and literal) from the host's answers. */
function classTruth(c: Classes, pages: TextPages, n: number): Uint8Array | undefined {
  const { missing, empty, other, literals } = c;
  const out = new Uint8Array(n);
  const needLen = missing !== other || empty !== other;
  const equals: Array<[string, number]> = [];
  for (const [s, a] of literals) if (s !== '' && a !== other) equals.push([s, a]);
  if (!needLen && equals.length === 0) return out.fill(other);
  for (let p = 0, lo = 0; lo < n; p++) {
    const hi = MathMin(n, lo + PAGE_ROWS);
    if (!hostPage(pages, p, lo, hi, out, c, needLen, equals) && !guestPage(pages.page(p), lo, hi, out, c))
      return undefined;
    lo = hi;
  }
  return out;
}

/**
 * The truth value per row of a callback that reads features: each row's class, the literal it equals
 * (if any) and its features from the host's answers, the body evaluated on them. Undefined when a
 * feature is read of a null row (the callback as written throws: the chain replays) or a row is
 * neither a string nor null.
 */
function rowTruth(c: Classes, pages: TextPages, n: number): Uint8Array | undefined {
  const out = new Uint8Array(n);
  return perRow(c.body, c.literals.keys(), c.features, c.otherString, pages, n, (i, x) => {
    out[i] = x ? 1 : 0;
    return true;
  })
    ? out
    : undefined;
}

/**
 * The number a map callback `a => ...` gives for each of the `n` rows of `pages`, when its body uses
 * the value as a filter's may (textClasses, but not as the bare result) and gives a number for every
 * row: evaluated per row as rowTruth does. Undefined when the body reads more, a feature is read of
 * a null row, or a row's result is not a number (the chain replays).
 */
export function textNumbers(body: Node, pages: TextPages, n: number): Float64Array | undefined {
  const found = new SafeSet<string>();
  if (!allowed(body, false, found)) return undefined;
  let longest = '';
  for (const s of found) if (s.length > longest.length) longest = s;
  const out = new Float64Array(n);
  const ok = perRow(body, found.values(), featuresOf(body), `${longest}\u0000`, pages, n, (i, x) => {
    if (typeof x !== 'number') return false;
    out[i] = x;
    return true;
  });
  return ok ? out : undefined;
}

/**
 * Evaluates `body` on every row (its class, the literal of `literals` it equals, its features from
 * the host's answers) and hands each result to `put`; false when `put` refuses one, a feature is read
 * of a null row, a string method was replaced, or a row is neither a string nor null.
 */
function perRow(
  body: Node,
  literals: Iterable<string>,
  features: Feature[],
  otherString: string,
  pages: TextPages,
  n: number,
  put: (i: number, x: unknown) => boolean,
): boolean {
  // a replaced String.prototype.includes is what the callback as written calls
  if (!stringMethodsIntact()) return false;
  const equals: string[] = [];
  for (const s of literals) if (s !== '') equals[equals.length] = s;
  const all: Feature[] = [...features];
  for (const s of equals) all[all.length] = ['e', s];
  const got = rowFeatures(pages, n, all);
  if (!got) return false;
  const { classes, values } = got;
  const base = features.length;
  const at: RowAt = { i: 0, values };
  // with no length read, a row's result depends only on its class, its literal and its feature bits:
  // evaluated once per combination met
  let tests = base <= 12;
  for (let k = 0; k < base && tests; k++) tests = features[k]![0] !== 'u';
  const seen = tests ? new SafeMap<number, unknown>() : null;
  try {
    for (let i = 0; i < n; i++) {
      const k = classes[i];
      let v: string | null = k === NULL_ROW ? null : k === EMPTY_ROW ? '' : otherString;
      let code = k === NULL_ROW ? 0 : k === EMPTY_ROW ? 1 : 2 + equals.length;
      if (k === OTHER_ROW)
        for (let j = 0; j < equals.length; j++)
          if (values[base + j]![i] === 1) {
            v = equals[j]!;
            code = 2 + j;
            break;
          }
      if (seen !== null) {
        for (let f = 0; f < base; f++) code = code * 2 + (values[f]![i] === 1 ? 1 : 0);
        let x = seen.get(code);
        if (x === undefined && !seen.has(code)) {
          at.i = i;
          x = value(body, v, at);
          seen.set(code, x);
        }
        if (!put(i, x)) return false;
        continue;
      }
      at.i = i;
      if (!put(i, value(body, v, at))) return false;
    }
  } catch (e) {
    if (e === NULL_READ) return false;
    throw e;
  }
  return true;
}

/**
 * The Feature node for `e` when it reads a feature of the value (`isValue` says which nodes are the
 * value): `.length`, `.includes(lit)`, `.toLowerCase().includes(lit)` (lit lower case, not empty);
 * else undefined.
 */
export function featureNode(e: Node, isValue: (n: Node) => boolean): Node | undefined {
  const member = (m: Node, name: string) =>
    m.type === 'MemberExpression' &&
    !m.computed &&
    !m.optional &&
    (m.property as Node).type === 'Identifier' &&
    (m.property as Node).name === name;
  if (e.type === 'MemberExpression' && member(e, 'length') && isValue(e.object as Node))
    return { type: 'Feature', feature: ['u'], test: false };
  if (e.type !== 'CallExpression' || e.optional) return undefined;
  const args = e.arguments as Node[];
  const callee = e.callee as Node;
  if (args.length !== 1 || !member(callee, 'includes')) return undefined;
  const lit = args[0]!;
  if (lit.type !== 'Literal' || typeof lit.value !== 'string' || lit.value === '') return undefined;
  const on = callee.object as Node;
  if (isValue(on)) return { type: 'Feature', feature: ['c', lit.value, 'none'], test: true };
  if (
    on.type === 'CallExpression' &&
    !on.optional &&
    (on.arguments as Node[]).length === 0 &&
    member(on.callee as Node, 'toLowerCase') &&
    isValue((on.callee as Node).object as Node) &&
    ReflectApply(StringToLowerCase, lit.value, []) === lit.value
  )
    return { type: 'Feature', feature: ['c', lit.value, 'lower'], test: true };
  return undefined;
}

function hostPage(
  pages: TextPages,
  p: number,
  lo: number,
  hi: number,
  out: Uint8Array,
  { missing, empty, other }: Classes,
  needLen: boolean,
  equals: Array<[string, number]>,
): boolean {
  // asked for a held page too: the host's answer from the stored lengths beats a read per row here
  const len = needLen ? pages.scan(p, { op: 'len' }, true) : null;
  if (needLen && !len) return false;
  const hits: Uint8Array[] = [];
  for (const [needle] of equals) {
    const got = pages.scan(p, { op: 'equals', needle }, true);
    if (!got) return false;
    hits.push(got as Uint8Array);
  }
  out.fill(other, lo, hi);
  if (len)
    for (let i = lo; i < hi; i++) {
      const g = len[i - lo]!;
      if (g <= 0) out[i] = g < 0 ? missing : empty;
    }
  for (let k = 0; k < equals.length; k++) {
    const got = hits[k]!;
    const a = equals[k]![1];
    for (let i = lo; i < hi; i++) if (got[i - lo] === 1) out[i] = a;
  }
  return true;
}

function guestPage(
  rows: ReadonlyArray<unknown>,
  lo: number,
  hi: number,
  out: Uint8Array,
  { missing, empty, other, literals }: Classes,
): boolean {
  for (let i = lo; i < hi; i++) {
    const s = rows[i - lo];
    if (s === null) out[i] = missing;
    else if (typeof s !== 'string') return false;
    else if (s === '') out[i] = empty;
    else out[i] = literals.get(s) ?? other;
  }
  return true;
}

/**
 * The body of a row callback `r => ...` (an arrow of one plain parameter, an expression or one
 * `return`) whose row is only read as `r.field` / `r['field']`, with those reads as the Vec node
 * textClasses reads as the value; undefined for anything else (the row itself, another field, a
 * name, a call: the chain then reads the rows' values).
 */
export function rowCallbackBody(fn: unknown, field: string): Node | undefined {
  if (typeof fn !== 'function') return undefined;
  const root = closureNode(fn);
  if (!root || root.type !== 'ArrowFunctionExpression' || root.async) return undefined;
  const params = root.params as Node[];
  if (params.length !== 1 || params[0]!.type !== 'Identifier') return undefined;
  const param = params[0]!.name;
  let body = root.body as Node;
  if (body.type === 'BlockStatement') {
    const list = body.body as Node[];
    if (list.length !== 1 || list[0]!.type !== 'ReturnStatement' || !list[0]!.argument) return undefined;
    body = list[0]!.argument as Node;
  }
  const isField = (e: Node) => {
    if (e.type !== 'MemberExpression') return false;
    const o = e.object as Node;
    const p = e.property as Node;
    const key = e.computed ? (p.type === 'Literal' ? p.value : undefined) : p.name;
    return o.type === 'Identifier' && o.name === param && !e.optional && key === field;
  };
  const convert = (e: Node): Node | undefined => {
    const feature = featureNode(e, isField);
    if (feature) return feature;
    switch (e.type) {
      case 'MemberExpression': {
        const o = e.object as Node;
        const p = e.property as Node;
        const key = e.computed ? (p.type === 'Literal' ? p.value : undefined) : p.name;
        return o.type === 'Identifier' && o.name === param && !e.optional && key === field
          ? { type: 'Vec', vec: { k: 'const', value: null } }
          : undefined;
      }
      case 'Literal':
        return e;
      case 'BinaryExpression':
      case 'LogicalExpression': {
        const left = convert(e.left as Node);
        const right = convert(e.right as Node);
        return left && right ? { type: e.type, operator: e.operator, left, right } : undefined;
      }
      case 'UnaryExpression': {
        const argument = convert(e.argument as Node);
        return argument ? { type: e.type, operator: e.operator, argument } : undefined;
      }
      case 'ConditionalExpression': {
        const [test, consequent, alternate] = [e.test, e.consequent, e.alternate].map((x) => convert(x as Node));
        return test && consequent && alternate ? { type: e.type, test, consequent, alternate } : undefined;
      }
      default:
        return undefined; // a name (even `undefined`: a program may bind it), a call, the row itself
    }
  };
  return convert(body);
}
