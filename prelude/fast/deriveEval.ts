/**
 * Evaluates one derive expression from Arquero's own parse tree (the tree Arquero compiles) a
 * column at a time, into a Vec (fast/deriveVec.ts). The value of every visible row is the value
 * Arquero's compiled code gives at that row:
 * - arithmetic and relational operators on numbers, booleans, dates and null: one loop over
 *   Float64Arrays, each side converted as JavaScript converts it (null is 0, a Date its time);
 * - an operator or a pure function (fast/deriveFunctions.ts) over one dictionary column and
 *   constants: once per dictionary entry, then a lookup by code;
 * - a function of a date column: once per distinct time of the column (a fresh Date each call, as
 *   `at()` gives), then a lookup by code (fast/dateCodes.ts);
 * - `op.length(d.X)` or `d.X.length` of long text: the host's UTF-16 counts (fast/textUnits.ts);
 * - any other function of long text: per row, on the text pages themselves;
 * - `&&`, `||`, `??`, `?:`, `!`, equality and anything over several columns: the JavaScript
 *   operator per row, on the same values.
 * Any other node (strings out, `undefined`, objects, regexes, aggregate/window ops, dates out)
 * gives up, and Arquero's derive runs instead.
 */
import { NativeDate } from '../intrinsics.js';
import { dateCodes } from './dateCodes.js';
import { columnChunks } from './columnChunks.js';
import type { LazyColumn } from '../data/lazyColumn.js';
import { pureFunction } from './deriveFunctions.js';
import {
  Collector,
  columnVec,
  eachRow,
  giveUp,
  numberLike,
  numbers,
  valueReader,
  type Env,
  type Vec,
} from './deriveVec.js';
import type { Node } from './node.js';
import { textUnits } from './textUnits.js';

type Op2 = (a: unknown, b: unknown) => unknown;

/** The binary operators, as JavaScript evaluates them (the per-row and per-entry paths). */
const BINARY: Record<string, Op2> = {
  '+': (a, b) => (a as number) + (b as number),
  '-': (a, b) => (a as number) - (b as number),
  '*': (a, b) => (a as number) * (b as number),
  '/': (a, b) => (a as number) / (b as number),
  '%': (a, b) => (a as number) % (b as number),
  '**': (a, b) => (a as number) ** (b as number),
  '<': (a, b) => (a as number) < (b as number),
  '<=': (a, b) => (a as number) <= (b as number),
  '>': (a, b) => (a as number) > (b as number),
  '>=': (a, b) => (a as number) >= (b as number),
  '===': (a, b) => a === b,
  '!==': (a, b) => a !== b,
  // eslint-disable-next-line eqeqeq
  '==': (a, b) => a == b,
  // eslint-disable-next-line eqeqeq
  '!=': (a, b) => a != b,
  '&': (a, b) => (a as number) & (b as number),
  '|': (a, b) => (a as number) | (b as number),
  '^': (a, b) => (a as number) ^ (b as number),
  '<<': (a, b) => (a as number) << (b as number),
  '>>': (a, b) => (a as number) >> (b as number),
  '>>>': (a, b) => (a as number) >>> (b as number),
  '&&': (a, b) => a && b,
  '||': (a, b) => a || b,
  '??': (a, b) => a ?? b,
};

const UNARY: Record<string, (a: unknown) => unknown> = {
  '-': (a) => -(a as number),
  '+': (a) => +(a as number),
  '!': (a) => !a,
  '~': (a) => ~(a as number),
};

const ARITH = new Set(['-', '*', '/', '%', '**', '&', '|', '^', '<<', '>>', '>>>']);
const RELATIONAL = new Set(['<', '<=', '>', '>=']);
const EQUALITY = new Set(['===', '!==', '==', '!=']);

/** Arquero's named constants (`NaN`, `Math.PI`, ...). */
const CONSTANTS: Record<string, unknown> = {
  undefined: undefined,
  Infinity: Number.POSITIVE_INFINITY,
  NaN: Number.NaN,
  E: Math.E,
  LN2: Math.LN2,
  LN10: Math.LN10,
  LOG2E: Math.LOG2E,
  LOG10E: Math.LOG10E,
  PI: Math.PI,
  SQRT1_2: Math.SQRT1_2,
  SQRT2: Math.SQRT2,
};

/** The Vec of `node` over the visible rows of `env.t`. */
export function evalNode(env: Env, node: Node, params: Record<string, unknown>): Vec {
  switch (node.type) {
    case 'Vec': // a value computed before (fast/arrayChain.ts: the element of a chain after a map)
      return node.vec as Vec;
    case 'Column':
      if (node.table !== 0 && node.table !== undefined) giveUp();
      return columnVec(env.t, node.name as string);
    case 'Literal':
      if (node.regex || (node.value !== null && typeof node.value === 'object') || typeof node.value === 'bigint')
        giveUp();
      return { k: 'const', value: node.value };
    case 'Constant':
      if (!Object.hasOwn(CONSTANTS, node.name as string)) giveUp();
      return { k: 'const', value: CONSTANTS[node.name as string] };
    case 'Parameter': {
      const name = node.name as string;
      const x = Object.hasOwn(params, name) ? params[name] : undefined;
      if (x !== null && typeof x === 'object') giveUp();
      if (typeof x === 'function' || typeof x === 'symbol' || typeof x === 'bigint') giveUp();
      return { k: 'const', value: x };
    }
    case 'BinaryExpression':
    case 'LogicalExpression':
      return binary(
        env,
        node.operator as string,
        evalNode(env, node.left as Node, params),
        evalNode(env, node.right as Node, params),
      );
    case 'UnaryExpression':
      return unary(env, node.operator as string, evalNode(env, node.argument as Node, params));
    case 'ConditionalExpression': {
      const [c, a, b] = [node.test, node.consequent, node.alternate].map((x) => evalNode(env, x as Node, params));
      return select(env, truthy(env, c!), a!, b!) ?? perRow(env, [c!, a!, b!], (x, y, z) => (x ? y : z));
    }
    case 'MemberExpression': {
      const p = node.property as Node;
      const isLength = node.computed ? p.type === 'Literal' && p.value === 'length' : p.name === 'length';
      if (!isLength) giveUp();
      const obj = evalNode(env, node.object as Node, params);
      return (
        (obj.k === 'text' ? textUnits(env, obj.name, false) : null) ?? apply(env, (s) => (s as string).length, [obj])
      );
    }
    case 'CallExpression': {
      const callee = node.callee as Node;
      if (callee.type !== 'Function') giveUp();
      const fn = pureFunction(callee.name as string);
      const args = (node.arguments as Node[]).map((a) => evalNode(env, a, params));
      const one = args.length === 1 ? args[0]! : null;
      // op.length of long text: the host's UTF-16 counts (a null row is 0, as `length` gives)
      const hosted = callee.name === 'length' && one?.k === 'text' ? textUnits(env, one.name, true) : null;
      return hosted ?? apply(env, fn, args);
    }
    default:
      return giveUp();
  }
}

function binary(env: Env, op: string, a: Vec, b: Vec): Vec {
  const f = BINARY[op];
  if (!f) giveUp();
  if (a.k === 'const' && b.k === 'const') return { k: 'const', value: f(a.value, b.value) };
  if (op === '&&' || op === '||' || op === '??') {
    const typed = logical(env, op, a, b);
    if (typed) return typed;
  }
  if (EQUALITY.has(op)) {
    const typed = equality(env, op, a, b);
    if (typed) return typed;
  }
  const codes = a.k === 'codes' ? a.codes : b.k === 'codes' ? b.codes : null;
  const perEntry = codes && [a, b].every((x) => x.k === 'const' || (x.k === 'codes' && x.codes === codes));
  if (!perEntry && a.k !== 'text' && b.k !== 'text') {
    const dates = a.k === 'date' || b.k === 'date';
    if (ARITH.has(op) || (op === '+' && !dates && numberLike(a) && numberLike(b))) return arith(env, op, a, b, f);
    if (RELATIONAL.has(op) && numberLike(a) && numberLike(b)) return compare(env, op, a, b);
  }
  return apply(env, f as (...xs: unknown[]) => unknown, [a, b]);
}

function unary(env: Env, op: string, a: Vec): Vec {
  const f = UNARY[op];
  if (!f) giveUp();
  if (a.k === 'const') return { k: 'const', value: f(a.value) };
  if ((op === '-' || op === '+') && a.k !== 'text' && a.k !== 'codes') {
    const x = numbers(env, a);
    const out = new Float64Array(env.n);
    if (op === '-') for (let i = 0; i < out.length; i++) out[i] = -x[i]!;
    else out.set(x);
    return { k: 'num', v: out, valid: null };
  }
  if (op === '!' && a.k !== 'text' && a.k !== 'codes') {
    const m = truthy(env, a);
    const out = new Uint8Array(env.n);
    for (let i = 0; i < out.length; i++) out[i] = m[i]! ^ 1;
    return { k: 'bool', v: out };
  }
  return apply(env, f, [a]);
}

/** `a OP b` with both sides numbers (ToNumber of each row), on Float64Arrays; a constant side stays a scalar. */
function arith(env: Env, op: string, a: Vec, b: Vec, f: Op2): Vec {
  const n = env.n;
  const out = new Float64Array(n);
  const ka = a.k === 'const' ? +(a.value as number) : 0;
  const kb = b.k === 'const' ? +(b.value as number) : 0;
  if (a.k === 'num' && a.valid && b.k === 'const' && (op === '/' || op === '*')) {
    // the commonest derive (`d.amount / 1e6`): null read as 0 in the loop, no converted copy
    scaleInto(a.v, a.valid, kb, op, out, n);
    return { k: 'num', v: out, valid: null };
  }
  const x = a.k === 'const' ? null : numbers(env, a);
  const y = b.k === 'const' ? null : numbers(env, b);
  if (x && y) bothInto(x, y, op, f, out, n);
  else if (x) leftInto(x, kb, op, f, out, n);
  else rightInto(ka, y!, op, f, out, n);
  return { k: 'num', v: out, valid: null };
}

function scaleInto(v: Float64Array, valid: Uint8Array, kb: number, op: string, out: Float64Array, n: number): void {
  if (op === '/') for (let i = 0; i < n; i++) out[i] = (valid[i] ? v[i]! : 0) / kb;
  else for (let i = 0; i < n; i++) out[i] = (valid[i] ? v[i]! : 0) * kb;
}

function bothInto(x: Float64Array, y: Float64Array, op: string, f: Op2, out: Float64Array, n: number): void {
  if (op === '+') for (let i = 0; i < n; i++) out[i] = x[i]! + y[i]!;
  else if (op === '-') for (let i = 0; i < n; i++) out[i] = x[i]! - y[i]!;
  else if (op === '*') for (let i = 0; i < n; i++) out[i] = x[i]! * y[i]!;
  else if (op === '/') for (let i = 0; i < n; i++) out[i] = x[i]! / y[i]!;
  else for (let i = 0; i < n; i++) out[i] = f(x[i], y[i]) as number;
}

function leftInto(x: Float64Array, kb: number, op: string, f: Op2, out: Float64Array, n: number): void {
  if (op === '+') for (let i = 0; i < n; i++) out[i] = x[i]! + kb;
  else if (op === '-') for (let i = 0; i < n; i++) out[i] = x[i]! - kb;
  else if (op === '*') for (let i = 0; i < n; i++) out[i] = x[i]! * kb;
  else if (op === '/') for (let i = 0; i < n; i++) out[i] = x[i]! / kb;
  else for (let i = 0; i < n; i++) out[i] = f(x[i], kb) as number;
}

function rightInto(ka: number, z: Float64Array, op: string, f: Op2, out: Float64Array, n: number): void {
  if (op === '+') for (let i = 0; i < n; i++) out[i] = ka + z[i]!;
  else if (op === '-') for (let i = 0; i < n; i++) out[i] = ka - z[i]!;
  else if (op === '*') for (let i = 0; i < n; i++) out[i] = ka * z[i]!;
  else if (op === '/') for (let i = 0; i < n; i++) out[i] = ka / z[i]!;
  else for (let i = 0; i < n; i++) out[i] = f(ka, z[i]) as number;
}

/** `a < b` and kin with both sides numbers: a Date compares by its time, null as 0. */
function compare(env: Env, op: string, a: Vec, b: Vec): Vec {
  const n = env.n;
  // a number column against a constant (`d.amount > 1e6`): one loop, null read as 0, no copies
  if (a.k === 'num' && b.k === 'const') return compareScalar(n, a, +(b.value as number), op);
  if (b.k === 'num' && a.k === 'const') return compareScalar(n, b, +(a.value as number), MIRROR[op]!);
  const out = new Uint8Array(n);
  const x = a.k === 'const' ? new Float64Array(n).fill(+(a.value as number)) : numbers(env, a);
  const y = b.k === 'const' ? new Float64Array(n).fill(+(b.value as number)) : numbers(env, b);
  if (op === '<') for (let i = 0; i < n; i++) out[i] = x[i]! < y[i]! ? 1 : 0;
  else if (op === '<=') for (let i = 0; i < n; i++) out[i] = x[i]! <= y[i]! ? 1 : 0;
  else if (op === '>') for (let i = 0; i < n; i++) out[i] = x[i]! > y[i]! ? 1 : 0;
  else for (let i = 0; i < n; i++) out[i] = x[i]! >= y[i]! ? 1 : 0;
  return { k: 'bool', v: out };
}

/** `k < x` is `x > k`: the operator with its sides swapped (NaN false either way). */
const MIRROR: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

function compareScalar(n: number, a: Extract<Vec, { k: 'num' }>, k: number, op: string): Vec {
  const out = new Uint8Array(n);
  compareInto(a.v, a.valid, k, op, out, n);
  return { k: 'bool', v: out };
}

// The loops of compareScalar, arith and equality, each in a function that ends with them: V8
// compiles a loop that runs once per call while it runs, and code after it that has not run yet
// (here the Vec literal) throws that compile away again on every later call (docs/architecture.md,
// "Inside the prelude").
function compareInto(
  v: Float64Array,
  valid: Uint8Array | null,
  k: number,
  op: string,
  out: Uint8Array,
  n: number,
): void {
  if (valid === null) {
    if (op === '<') for (let i = 0; i < n; i++) out[i] = v[i]! < k ? 1 : 0;
    else if (op === '<=') for (let i = 0; i < n; i++) out[i] = v[i]! <= k ? 1 : 0;
    else if (op === '>') for (let i = 0; i < n; i++) out[i] = v[i]! > k ? 1 : 0;
    else for (let i = 0; i < n; i++) out[i] = v[i]! >= k ? 1 : 0;
  } else if (op === '<') for (let i = 0; i < n; i++) out[i] = (valid[i] ? v[i]! : 0) < k ? 1 : 0;
  else if (op === '<=') for (let i = 0; i < n; i++) out[i] = (valid[i] ? v[i]! : 0) <= k ? 1 : 0;
  else if (op === '>') for (let i = 0; i < n; i++) out[i] = (valid[i] ? v[i]! : 0) > k ? 1 : 0;
  else for (let i = 0; i < n; i++) out[i] = (valid[i] ? v[i]! : 0) >= k ? 1 : 0;
}

/** The truth value of every row (JavaScript's ToBoolean: 0, NaN and null false, a Date true). */
export function truthy(env: Env, a: Vec): Uint8Array {
  const n = env.n;
  const out = new Uint8Array(n);
  switch (a.k) {
    case 'const':
      return out.fill(a.value ? 1 : 0);
    case 'bool':
      return a.v;
    case 'num': {
      const { v, valid } = a;
      for (let i = 0; i < n; i++) {
        const x = v[i]!;
        out[i] = (valid === null || valid[i]) && x === x && x !== 0 ? 1 : 0;
      }
      return out;
    }
    case 'date':
      return a.valid;
    case 'codes': {
      const lut = Uint8Array.from(a.values, (x) => (x ? 1 : 0));
      const codes = a.codes;
      for (let i = 0; i < n; i++) out[i] = lut[codes[i]! + 1]!;
      return out;
    }
    default:
      return giveUp();
  }
}

/** A number Vec (or number/null constant) as values + validity, else null. */
function asNumbers(env: Env, a: Vec): { v: Float64Array | number; valid: Uint8Array | null | 0 | 1 } | null {
  if (a.k === 'num') return { v: a.v, valid: a.valid };
  if (a.k === 'const' && typeof a.value === 'number') return { v: a.value, valid: 1 };
  if (a.k === 'const' && a.value === null) return { v: 0, valid: 0 };
  return null;
}

/** `m ? a : b` per row when both sides are numbers (or null) or both booleans; null when they are not. */
function select(env: Env, m: Uint8Array, a: Vec, b: Vec): Vec | null {
  const n = env.n;
  const x = asNumbers(env, a);
  const y = asNumbers(env, b);
  if (x && y) {
    const out = new Float64Array(n);
    const valid = new Uint8Array(n);
    let nulls = false;
    for (let i = 0; i < n; i++) {
      const s = m[i] ? x : y;
      const ok = typeof s.valid === 'number' ? s.valid : s.valid === null ? 1 : s.valid[i]!;
      out[i] = typeof s.v === 'number' ? s.v : s.v[i]!;
      valid[i] = ok;
      if (!ok) nulls = true;
    }
    return { k: 'num', v: out, valid: nulls ? valid : null };
  }
  const p = a.k === 'bool' ? a.v : a.k === 'const' && typeof a.value === 'boolean' ? (a.value ? 1 : 0) : null;
  const q = b.k === 'bool' ? b.v : b.k === 'const' && typeof b.value === 'boolean' ? (b.value ? 1 : 0) : null;
  if (p === null || q === null) return null;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const s = m[i] ? p : q;
    out[i] = typeof s === 'number' ? s : s[i]!;
  }
  return { k: 'bool', v: out };
}

/** `a && b`, `a || b`, `a ?? b` as a choice per row between the two values; null when not typed. */
function logical(env: Env, op: string, a: Vec, b: Vec): Vec | null {
  if (a.k === 'text' || a.k === 'codes') return null;
  if (op === '??') {
    if (a.k !== 'num') return null;
    const isNull = new Uint8Array(env.n);
    if (a.valid) for (let i = 0; i < isNull.length; i++) isNull[i] = a.valid[i]! ^ 1;
    return select(env, isNull, b, a);
  }
  const m = truthy(env, a);
  return op === '&&' ? select(env, m, b, a) : select(env, m, a, b);
}

/** `===`, `!==`, `==`, `!=` between numbers (or null) or between booleans; null when not typed. */
function equality(env: Env, op: string, a: Vec, b: Vec): Vec | null {
  const n = env.n;
  const out = new Uint8Array(n);
  const x = asNumbers(env, a);
  const y = asNumbers(env, b);
  const nullSide = x && x.valid === 0 ? y : y && y.valid === 0 ? x : null;
  const not = op === '!==' || op === '!=';
  if (nullSide && typeof nullSide.valid !== 'number') {
    // `v == null`: equal exactly where the other side is null (one pass over its validity)
    const valid = nullSide.valid;
    if (valid !== null) nullsInto(valid, not ? 1 : 0, out, n);
    else if (not) out.fill(1);
  } else if (x && y) {
    // null equals only null (a number never), for == as for ===
    numbersEqualInto(x, y, not ? 1 : 0, out, n);
  } else if (a.k === 'bool' && b.k === 'bool') {
    boolsEqualInto(a.v, b.v, not ? 1 : 0, out, n);
  } else return null;
  return { k: 'bool', v: out };
}

/** out[i] = 1 where `valid[i]` is 0 (null), each flipped by `flip` (`!==`/`!=`). */
function nullsInto(valid: Uint8Array, flip: number, out: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) out[i] = (valid[i] ? 0 : 1) ^ flip;
}

function numbersEqualInto(
  x: { v: Float64Array | number; valid: Uint8Array | null | 0 | 1 },
  y: { v: Float64Array | number; valid: Uint8Array | null | 0 | 1 },
  flip: number,
  out: Uint8Array,
  n: number,
): void {
  for (let i = 0; i < n; i++) {
    const na = typeof x.valid === 'number' ? x.valid : x.valid === null ? 1 : x.valid[i]!;
    const nb = typeof y.valid === 'number' ? y.valid : y.valid === null ? 1 : y.valid[i]!;
    const u = typeof x.v === 'number' ? x.v : x.v[i]!;
    const w = typeof y.v === 'number' ? y.v : y.v[i]!;
    out[i] = (na && nb ? (u === w ? 1 : 0) : na === nb ? 1 : 0) ^ flip;
  }
}

function boolsEqualInto(p: Uint8Array, q: Uint8Array, flip: number, out: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) out[i] = (p[i] === q[i] ? 1 : 0) ^ flip;
}

/** `f` over the values of `args` (pure, so evaluated once per entry or distinct date where it can). */
function apply(env: Env, f: (...xs: unknown[]) => unknown, args: Vec[]): Vec {
  const vecs = args.filter((a) => a.k !== 'const');
  if (vecs.length === 0) return { k: 'const', value: f(...args.map((a) => (a as { value: unknown }).value)) };
  const one = vecs[0]!;
  const sameCodes = vecs.every((v) => v.k === 'codes' && one.k === 'codes' && v.codes === one.codes);
  if (sameCodes) return perEntry(env, f, args, one as Extract<Vec, { k: 'codes' }>);
  if (vecs.length === 1 && one.k === 'date') return perDate(env, f, args, one);
  if (vecs.length === 1 && one.k === 'text') return perText(env, f, args, one.name);
  return perRow(env, args, f);
}

/** Once per dictionary entry (and null); an entry that throws is fine unless a visible row holds it. */
function perEntry(env: Env, f: (...xs: unknown[]) => unknown, args: Vec[], c: Extract<Vec, { k: 'codes' }>): Vec {
  const m = c.values.length;
  const values = new Array<unknown>(m);
  let throws: Uint8Array | null = null;
  for (let j = 0; j < m; j++) {
    const xs = args.map((a) => (a.k === 'const' ? a.value : (a as Extract<Vec, { k: 'codes' }>).values[j]));
    try {
      values[j] = f(...xs);
    } catch {
      (throws ??= new Uint8Array(m))[j] = 1;
      values[j] = null;
    }
  }
  if (throws) {
    const t = throws;
    eachRow(env, (i) => {
      if (t[c.codes[i]! + 1]) giveUp(); // Arquero's per-row code throws its own error here
    });
  }
  return { k: 'codes', codes: c.codes, values };
}

/**
 * A function of one date column: once per distinct time of the column (fast/dateCodes.ts, built
 * once per session), on a fresh Date each call, then a lookup by code. A time whose call throws is
 * fine unless a visible row holds it; a result that is an object or undefined gives up (one value
 * would stand for every row of that time, where Arquero's code makes one per row).
 */
function perDate(env: Env, f: (...xs: unknown[]) => unknown, args: Vec[], d: Extract<Vec, { k: 'date' }>): Vec {
  const at = args.indexOf(d);
  const xs = args.map((a) => (a.k === 'const' ? a.value : null));
  const { codes, times } = dateCodes(d.v, d.valid);
  const m = times.length + 1;
  const values = new Array<unknown>(m);
  let throws: Uint8Array | null = null;
  for (let j = 0; j < m; j++) {
    xs[at] = j === 0 ? null : new NativeDate(times[j - 1]!);
    let r: unknown;
    try {
      r = f(...xs);
    } catch {
      (throws ??= new Uint8Array(m))[j] = 1;
      r = null;
    }
    if (r === undefined || (r !== null && (typeof r === 'object' || typeof r === 'function'))) giveUp();
    values[j] = r;
  }
  if (throws) {
    const t = throws;
    eachRow(env, (i) => {
      if (t[codes[i]! + 1]) giveUp(); // Arquero's per-row code throws its own error here
    });
  }
  return { k: 'codes', codes, values };
}

/** A function of one long text column, per row on its pages (no `at()` per row). */
function perText(env: Env, f: (...xs: unknown[]) => unknown, args: Vec[], name: string): Vec {
  const at = args.findIndex((a) => a.k === 'text');
  const xs = args.map((a) => (a.k === 'const' ? a.value : null));
  const out = new Collector(env.n);
  const put = (i: number, s: unknown) => {
    xs[at] = s;
    let r: unknown;
    try {
      r = f(...xs);
    } catch {
      giveUp(); // Arquero's per-row code throws its own error
    }
    out.put(i, r);
  };
  const col = env.t.column(name)!;
  // text the session holds in pages (or whole): read the pages; text decoded per row: `at` itself
  const chunks = (col as LazyColumn).textPaged ? columnChunks(env.t, [name]) : undefined;
  if (!chunks) {
    eachRow(env, (i) => put(i, col.at(i)));
    return out.done();
  }
  const bits = env.t.mask();
  chunks((lo, hi, arrays, offsets) => {
    const arr = arrays[0]!;
    const off = offsets[0]!;
    for (let i = lo; i < hi; i++) if (!bits || bits.get(i)) put(i, arr[i - off]);
  });
  return out.done();
}

/** The JavaScript operator or function per visible row, on each row's values. */
function perRow(env: Env, args: Vec[], f: (...xs: unknown[]) => unknown): Vec {
  const readers = args.map(valueReader);
  const out = new Collector(env.n);
  const xs = new Array<unknown>(args.length);
  const [r0, r1, r2] = readers;
  const call =
    readers.length === 1
      ? (i: number) => f(r0!(i))
      : readers.length === 2
        ? (i: number) => f(r0!(i), r1!(i))
        : readers.length === 3
          ? (i: number) => f(r0!(i), r1!(i), r2!(i))
          : (i: number) => {
              for (let k = 0; k < readers.length; k++) xs[k] = readers[k]!(i);
              return f(...xs);
            };
  eachRow(env, (i) => {
    let r: unknown;
    try {
      r = call(i);
    } catch {
      giveUp();
    }
    out.put(i, r);
  });
  return out.done();
}
