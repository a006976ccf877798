/**
 * Scalar accumulation loops answered from the columns: the guest side of
 * src/runtime/prepare/scalarLoops.ts. A loop such as
 *   let s = 0, n = 0;
 *   for (const r of t.select('Award Amount').objects()) if (r['Award Amount'] != null) { s += r['Award Amount']; n++; }
 * (or over a table, a bound row array, destructured rows or `tolist()` places) reaches here through
 * the keyed loop's token (data/keyedLoop.ts) with its shape as data (`ScalarSpec`) and the
 * numbers its locals hold as the loop starts; a kernel compiled once per shape runs the updates as
 * written, row by row in the loop's order, on the values the loop would read, and the preparation's
 * code after the loop writes the locals from `tookScalar()`. Anything the kernel cannot keep exact (a
 * local that is not a number as the loop starts, a term field that is not a number column, a
 * min/max written through a Math the run replaced, a null a comparison would assign) answers false
 * before anything is written: the loop then runs as written. An index loop's arrays (or a for-of's
 * over a bound `t.array(col)`, session 19) are read through their columns once each is seen to hold
 * the values it was copied from (`unchanged`). `pickLoop` answers the loop that keeps a row.
 */
import {
  MapSizeGetter,
  NativeArray,
  NativeMap,
  NewFunction,
  NumberIsSafeInteger,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetOwnPropertyNames,
  ObjectGetPrototypeOf,
  ObjectPrototype,
  ReflectApply,
  SafeMap,
} from '../intrinsics.js';

const ObjectIsExtensible = Object.isExtensible;
import type { Source } from '../fast/source.js';
import {
  code,
  literalCodes,
  type Columns,
  arraysOf,
  columnsOf,
  type Copies,
  type Gen,
  holds,
  loads,
  numberCode,
  plainTerm,
  sessionMath,
  shapeText,
} from './keyedCode.js';

/**
 * `['scalar', locals, cond, updates, stop?]`: `locals` the number of locals the loop updates, `cond` (or
 * null) what a row must pass to be updated at all (the body's `if (C) continue;`s), `updates` in the
 * written order, each `[local, op, cond | null, term]`: op '+' (`a += term`, `a++`), 'max' / 'min'
 * (`a = Math.max(a, term)`), or a comparison '<', '<=', '>', '>=' (`if (term OP a) a = term`, term a
 * field); `stop` (an index loop's, session 20) `[local, op, number]`: the rows end at the first whose
 * turn finds `local op number` false. Expression trees as data/keyedLoop.ts's.
 */
export type ScalarSpec = unknown[];

type Kernel = (c: Columns, L: number[], idx: ArrayLike<number> | null, n: number, s: Float64Array) => number;

interface Compiled {
  kernel: Kernel;
  /** Whether the kernel calls Math.max or Math.min (the run's Math must then be the session's). */
  math: boolean;
  /** Fields a term reads (must be number columns). */
  termFields: number[];
  /** The literals a condition compares a dictionary field with by code: `[field, text]`, in L's order. */
  lits: [number, string][];
}

const MAX_COMPILED = 64;
const MapGet = NativeMap.prototype.get;
const MapSet = NativeMap.prototype.set;
const MapClear = NativeMap.prototype.clear;
const compiled = new SafeMap<string, Compiled>();

/** The locals of the last loop answered here, until the preparation's code after it takes them. */
let answer: ArrayLike<unknown> | null = null;
/** A pick loop answered (`pickLoop`): the raw index of the row it keeps, or -1 for none, until its row is made. */
let picked = -2;

/**
 * A loop answered over every row of a table's columns, kept: a warm session running the same loop
 * again (an agent re-running or extending its program) gets the same locals from the same start,
 * which is a pure function of the shape, the columns' arrays (a session's host columns never change)
 * and the start. Over visible rows through an index (a filtered or ordered table) nothing is kept.
 */
interface Kept {
  key: string;
  arrays: unknown[];
  n: number;
  start: Float64Array;
  out: Float64Array;
}
const KEPT_LOOPS = 8;
const kept: Kept[] = [];

/** Whether two Float64Arrays hold the same numbers, -0 and NaN as themselves. */
function sameNumbers(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let j = 0; j < a.length; j++) {
    const x = a[j]!;
    const y = b[j]!;
    if (x === y ? x === 0 && 1 / x !== 1 / y : x === x || y === y) return false;
  }
  return true;
}

/** The kept answer of this loop from `start`, most recent first (moved to the front), or null. */
function keptAnswer(key: string, arrays: unknown[], n: number, start: Float64Array): Float64Array | null {
  for (let e = 0; e < kept.length; e++) {
    const k = kept[e]!;
    if (k.key !== key || k.n !== n || k.arrays.length !== arrays.length || !sameNumbers(k.start, start)) continue;
    let same = true;
    for (let j = 0; j < arrays.length && same; j++) same = k.arrays[j] === arrays[j];
    if (!same) continue;
    for (let j = e; j > 0; j--) kept[j] = kept[j - 1]!;
    kept[0] = k;
    return k.out;
  }
  return null;
}

/** Keeps an answer as the most recent (the oldest falls off); no Array.prototype method (a run may replace them). */
function keep(k: Kept): void {
  const n = kept.length < KEPT_LOOPS ? kept.length + 1 : KEPT_LOOPS;
  for (let j = n - 1; j > 0; j--) kept[j] = kept[j - 1]!;
  kept[0] = k;
}

/** The kernel of `spec` over fields of `kinds`, compiled once per shape; undefined when it is not one. */
function compile(spec: ScalarSpec, kinds: string): Compiled | undefined {
  const cacheKey = `${kinds}\u0000${shapeText(spec)}`;
  const hit = ReflectApply(MapGet, compiled, [cacheKey]) as Compiled | undefined;
  if (hit) return hit;
  const [, locals, cond, updates, stop] = spec;
  if (typeof locals !== 'number' || locals % 1 !== 0 || locals < 1 || locals > 16) return undefined;
  if (!NativeArray.isArray(updates) || updates.length === 0 || updates.length > 32) return undefined;
  // `[local, op, number]`: the loop's test also stops it once the local fails `local op number`
  // (`i < xs.length && n < 20`), checked before each row as the test is
  let stopAt = -1;
  let stopCode = '';
  if (stop !== undefined) {
    if (!NativeArray.isArray(stop) || stop.length !== 3) return undefined;
    const [at, op, limit] = stop as unknown[];
    if (typeof at !== 'number' || at % 1 !== 0 || at < 0 || at >= locals) return undefined;
    if (op !== '<' && op !== '<=' && op !== '>' && op !== '>=') return undefined;
    if (typeof limit !== 'number' || !(limit >= 0 && limit < Infinity)) return undefined;
    stopAt = at;
    stopCode = `
      if (!(a${at} ${op} ${limit})) break;`;
  }
  const lits: [number, string][] = [];
  const all: Gen = { kinds, used: [], lits, raw: [] };
  const termGen: Gen = { kinds, used: [], lits: [], raw: [] };
  const condCode = cond === null ? 'true' : code(cond, all);
  if (condCode === undefined) return undefined;
  let math = false;
  let body = '';
  // a local one `+= integer` updates (a count): its passes counted without a jump per row, added once
  // at the end (exact while every partial sum is an integer: the kernel checks it)
  const counted: number[] = [];
  for (let k = 0; k < updates.length; k++) {
    const u = updates[k] as unknown[];
    const at = NativeArray.isArray(u) ? u[0] : -1;
    let uses = 0;
    for (let j = 0; j < updates.length; j++)
      if (NativeArray.isArray(updates[j]) && (updates[j] as unknown[])[0] === at) uses++;
    const term = NativeArray.isArray(u) ? (u[3] as unknown[]) : null;
    // the stop's local is read before each row: it is updated row by row
    if (
      at !== stopAt &&
      uses === 1 &&
      u[1] === '+' &&
      NativeArray.isArray(term) &&
      term[0] === 'n' &&
      NumberIsSafeInteger(term[1])
    )
      counted[counted.length] = k;
  }
  let start = '';
  let end = '';
  for (let k = 0; k < updates.length; k++) {
    const u = updates[k] as unknown;
    if (!NativeArray.isArray(u) || u.length !== 4) return undefined;
    const [at, op, when, term] = u as [unknown, unknown, unknown, unknown];
    if (typeof at !== 'number' || at % 1 !== 0 || at < 0 || at >= locals || !plainTerm(term)) return undefined;
    const guard = when === null ? 'true' : code(when, all);
    // the value as a number: what it adds, or Math.max/min compares, is the same (a null converts to 0)
    const value = numberCode(term, all);
    if (guard === undefined || value === undefined || code(term, termGen) === undefined) return undefined;
    const a = `a${at}`;
    let step: string;
    if (holds(counted, k)) {
      const t = (term as unknown[])[1] as number;
      start += `let c${k} = 0; `;
      body += `
      c${k} += +${guard};`;
      // a0 + t + t + ... (c terms) is a0 + c * t when a0 and every partial sum are integers below 2^53
      end += `if (c${k} !== 0) { const t = c${k} * ${t}; if (!(${a} % 1 === 0 && (${a} < 0 ? -${a} : ${a}) + (t < 0 ? -t : t) <= 9007199254740992)) return -1; ${a} = ${a} + t; } `;
      continue;
    }
    if (op === '+') step = `${a} = ${a} + ${value};`;
    else if (op === 'max' || op === 'min') {
      math = true;
      step = `${a} = ${op === 'max' ? 'MX' : 'MN'}(${a}, ${value});`;
    } else if (op === '<' || op === '<=' || op === '>' || op === '>=') {
      // `if (v < a) a = v` on a number field: a null compares as 0, and one the comparison passes would
      // leave the local no number
      const i = (term as unknown[])[0] === 'f' ? (term as unknown[])[1] : -1;
      if (typeof i !== 'number' || kinds[i] !== 'n') return undefined;
      step = `{ if (M${i}[r] !== 0) { const x = V${i}[r]; if (x ${op} ${a}) ${a} = x; } else if (0 ${op} ${a}) return -1; }`;
    } else return undefined;
    body += `
      if (${guard}) ${step}`;
  }
  let litLoad = '';
  for (let j = 0; j < lits.length; j++) litLoad += `const L${j} = L[${j}]; `;
  let first = '';
  let last = '';
  for (let j = 0; j < locals; j++) {
    first += `let a${j} = s[${j}]; `;
    last += `s[${j}] = a${j}; `;
  }
  const row = `${stopCode}
      if (!${condCode}) continue;${body}`;
  // one loop over every row and one through the index: no test of which per row
  const kernel = NewFunction(
    'c',
    'L',
    'idx',
    'n',
    's',
    `${loads(kinds, false)} ${litLoad} const MX = c.MX, MN = c.MN; ${first}${start}
    if (idx === null) for (let r = 0; r < n; r++) {${row}
    } else for (let k = 0; k < n; k++) {
      const r = idx[k];${row}
    }
    ${end}
    ${last}
    return 0;`,
  ) as Kernel;
  const c: Compiled = { kernel, math, termFields: termGen.used, lits };
  if ((ReflectApply(MapSizeGetter, compiled, []) as number) >= MAX_COMPILED) ReflectApply(MapClear, compiled, []);
  ReflectApply(MapSet, compiled, [cacheKey, c]);
  return c;
}

/**
 * Answers a scalar accumulation loop whose locals hold `start` (an array of numbers, as the
 * preparation passes them) over `srcs` (see data/keyedLoop.ts's keyedLoop): true when the locals'
 * values after the loop are ready for `tookScalar`; false, with nothing kept, when the loop must run
 * as written.
 */
export function scalarLoop(
  spec: ScalarSpec,
  start: unknown,
  srcs: (Source | undefined)[],
  idx: ArrayLike<number> | null,
  n: number,
  copies: Copies | null,
): boolean {
  answer = null;
  if ((spec.length !== 4 && spec.length !== 5) || !NativeArray.isArray(start) || start.length !== spec[1]) return false;
  // an index loop's arrays (data/keyedArrays.ts): each copy must still hold the kept values it was
  // copied from at every row (-0 and NaN as themselves) before its column is read in its place
  if (copies !== null && !unchanged(copies)) return false;
  const s = new Float64Array(start.length);
  for (let j = 0; j < start.length; j++) {
    const v = start[j] as unknown;
    if (typeof v !== 'number') return false;
    s[j] = v;
  }
  const read = columnsOf(srcs, copies);
  if (read === undefined) return false;
  const c = compile(spec, read.kinds);
  if (!c || (c.math && !sessionMath())) return false;
  for (let k = 0; k < c.termFields.length; k++) if (read.kinds[c.termFields[k]!] !== 'n') return false;
  const L = literalCodes(c.lits, srcs);
  const key = idx === null ? `${read.kinds}\u0000${shapeText(spec)}` : null;
  const arrays = key === null ? null : arraysOf(srcs);
  const hit = key === null ? null : keptAnswer(key, arrays!, n, s);
  if (hit !== null) {
    answer = new Float64Array(hit);
    return true;
  }
  const from = key === null ? null : new Float64Array(s);
  if (c.kernel(read.cols, L, idx, n, s) < 0) return false;
  if (key !== null) keep({ key, arrays: arrays!, n, start: from!, out: new Float64Array(s) });
  answer = s;
  return true;
}

/**
 * Whether every array of `copies` holds its kept values at every row (the same array, the column's
 * kept values handed out in place, needs no look). Reads each element once, as the loop would have.
 */
function unchanged(copies: Copies): boolean {
  for (let k = 0; k < copies.xs.length; k++) {
    const x = copies.xs[k]!;
    const a = copies.kept[k]!;
    if (x === a) continue;
    const n = a.length;
    if (x.length !== n) return false;
    for (let r = 0; r < n; r++) {
      const u = x[r];
      const v = a[r];
      if (u !== v ? u === u || v === v : u === 0 && 1 / (u as number) !== 1 / (v as number)) return false;
    }
  }
  return true;
}

/**
 * `__sbirtools_rowLoop.took(count)`: the locals' values the loop just answered (then forgotten), or
 * null when it ran as written.
 */
export function tookScalar(count: unknown): ArrayLike<unknown> | null {
  const a = answer;
  answer = null;
  return a !== null && a.length === count ? a : null;
}

/** A pick loop's kernel: the raw index of the row kept last, or -1. */
type PickKernel = (c: Columns, L: number[], idx: ArrayLike<number> | null, n: number) => number;
const picks = new SafeMap<string, PickKernel>();

/**
 * `['pick', cond, field, op]`: `let best = null; for (const r of ...) if (C && (best === null || r.F OP best.F)) best = r;`
 * (cond C or null; field F a number column, op with the row's value on the left): the raw index of
 * the row the loop keeps, each comparison as written on the values the loop reads (a null compared
 * as JavaScript does). The row itself is made by the caller (`settlePick`), who knows the table.
 * False, with nothing kept, when the loop must run as written (the local is not null as it starts).
 */
export function pickLoop(
  spec: unknown[],
  start: unknown,
  srcs: (Source | undefined)[],
  idx: ArrayLike<number> | null,
  n: number,
): boolean {
  answer = null;
  picked = -2;
  if (spec.length !== 4 || !NativeArray.isArray(start) || start.length !== 1 || start[0] !== null) return false;
  const at = pickRaw(spec, srcs, idx, n);
  if (at === undefined) return false;
  picked = at;
  return true;
}

/**
 * `['pickAt', cond, field, op, test]` (session 19, prepare/scalarLoops.ts `pickAtShape`): `for (let i =
 * 0; i < a.length; i++) if (C && (k < 0 || a[i] OP a[k])) k = i;` over arrays read through their
 * columns (`copies` checked first, as scalarLoop does): the index the loop keeps, or the start when no
 * row passes, as the local's value for `tookScalar`. The start must pass the test as the loop
 * begins ('<0': a number below 0; '-1': -1 itself), else false and the loop runs as written.
 */
export function pickAtLoop(
  spec: unknown[],
  start: unknown,
  srcs: (Source | undefined)[],
  n: number,
  copies: Copies | null,
): boolean {
  answer = null;
  if (spec.length !== 5 || !NativeArray.isArray(start) || start.length !== 1) return false;
  const k = start[0] as unknown;
  const test = spec[4];
  if (typeof k !== 'number' || !(test === '<0' ? k < 0 : test === '-1' && k === -1)) return false;
  if (copies !== null && !unchanged(copies)) return false;
  const at = pickRaw([spec[0], spec[1], spec[2], spec[3]], srcs, null, n);
  if (at === undefined) return false;
  const out = new Float64Array(1);
  out[0] = at < 0 ? k : at;
  answer = out;
  return true;
}

/** The raw index of the row a pick's kernel keeps (-1 for none), or undefined when it is not one. */
function pickRaw(
  spec: unknown[],
  srcs: (Source | undefined)[],
  idx: ArrayLike<number> | null,
  n: number,
): number | undefined {
  const [, cond, field, op] = spec;
  if (typeof field !== 'number' || field % 1 !== 0 || field < 0 || field >= srcs.length) return undefined;
  if (op !== '<' && op !== '<=' && op !== '>' && op !== '>=') return undefined;
  const read = columnsOf(srcs, null);
  if (read === undefined || read.kinds[field] !== 'n') return undefined;
  const key = `${read.kinds}\u0000${shapeText(spec)}`;
  const lits: [number, string][] = [];
  let kernel = ReflectApply(MapGet, picks, [key]) as PickKernel | undefined;
  const g: Gen = { kinds: read.kinds, used: [], lits, raw: [] };
  const condCode = cond === null ? 'true' : code(cond, g);
  if (condCode === undefined) return undefined;
  if (kernel === undefined) {
    let litLoad = '';
    for (let j = 0; j < lits.length; j++) litLoad += `const L${j} = L[${j}]; `;
    const M = `M${field}`;
    const V = `V${field}`;
    const row = `
      if (!${condCode}) continue;
      const v = ${M}[r] !== 0 ? ${V}[r] : null;
      if (b < 0 || v ${op} bv) { b = r; bv = v; }`;
    kernel = NewFunction(
      'c',
      'L',
      'idx',
      'n',
      `${loads(read.kinds, false)} ${litLoad} let b = -1, bv = null;
      if (idx === null) for (let r = 0; r < n; r++) {${row}
      } else for (let k = 0; k < n; k++) {
        const r = idx[k];${row}
      }
      return b;`,
    ) as PickKernel;
    if ((ReflectApply(MapSizeGetter, picks, []) as number) >= MAX_COMPILED) ReflectApply(MapClear, picks, []);
    ReflectApply(MapSet, picks, [key, kernel]);
  }
  const L = literalCodes(lits, srcs);
  // over every row the kept row's index is kept as a scalar loop's answer is (no start: it is null)
  const none = new Float64Array(0);
  const arrays = idx === null ? arraysOf(srcs) : null;
  const hit = arrays === null ? null : keptAnswer(key, arrays, n, none);
  if (hit !== null) return hit[0] as number;
  const at = kernel(read.cols, L, idx, n);
  if (arrays !== null) {
    const out = new Float64Array(1);
    out[0] = at;
    keep({ key, arrays, n, start: none, out });
  }
  return at;
}

/** A push loop's kernel: writes the raw index of every row that passes into `out`, in order, and returns how many. */
type PushKernel = (c: Columns, L: number[], idx: ArrayLike<number> | null, n: number, out: Uint32Array) => number;
const pushes = new SafeMap<string, PushKernel>();
/** The rows a push loop keeps (grown as needed; read only here). */
let pushRows = new Uint32Array(0);

const ArrayProto = NativeArray.prototype;
const arrayPush = ArrayProto.push;

/**
 * Whether `xs.push(v)` on `xs` (a `const xs = []` of the run: a real array, never a Proxy) is the
 * session's push adding `v` at index `length` with no code of the run called: its prototype is
 * Array.prototype, whose `push` is the session's (descriptors read: no getter runs), it has no own
 * `push`, it is extensible, and neither Array.prototype nor Object.prototype has an index-like key (a
 * setter there would run at the push).
 */
function plainPushTarget(xs: unknown): xs is unknown[] {
  if (!NativeArray.isArray(xs) || ObjectGetPrototypeOf(xs) !== ArrayProto || !ObjectIsExtensible(xs)) return false;
  if (ObjectGetOwnPropertyDescriptor(xs, 'push') !== undefined) return false;
  if (ObjectGetOwnPropertyDescriptor(ArrayProto, 'push')?.value !== arrayPush) return false;
  if (xs.length > 0x3fffffff) return false;
  return !indexKeys(ArrayProto) && !indexKeys(ObjectPrototype);
}

/** Whether `o` has an own key that is an array index (or looks like one: any key starting with a digit). */
function indexKeys(o: object): boolean {
  const keys = ObjectGetOwnPropertyNames(o);
  for (let i = 0; i < keys.length; i++) {
    // read by index: no String.prototype method (a run may have replaced them)
    const c = keys[i]![0]!;
    if (c >= '0' && c <= '9') return true;
  }
  return false;
}

/**
 * `['push', cond, field]` (session 19): `const xs = []; for (const r of ...) if (C) xs.push(r.F);`
 * (cond C or null; F a number column): the values of the rows that pass, in the loop's order, put at
 * the array's end as its pushes would (a number, or null for a missing value), once the array is one a
 * push adds to without calling code (plainPushTarget). False, with nothing pushed, when the loop must
 * run as written.
 */
export function pushLoop(
  spec: unknown[],
  start: unknown,
  srcs: (Source | undefined)[],
  idx: ArrayLike<number> | null,
  n: number,
): boolean {
  answer = null;
  if (spec.length !== 3 || !NativeArray.isArray(start) || start.length !== 1) return false;
  const xs = start[0];
  if (!plainPushTarget(xs)) return false;
  const field = spec[2];
  if (typeof field !== 'number' || field % 1 !== 0 || field < 0 || field >= srcs.length) return false;
  const read = columnsOf(srcs, null);
  if (read === undefined || read.kinds[field] !== 'n') return false;
  const pass = passingRows(spec, read, srcs, idx, n);
  if (pass === null) return false;
  pushValues(xs, read.cols.V[field] as ArrayLike<number>, read.cols.M[field] as ArrayLike<number>, pass.rows, pass.m);
  answer = new Float64Array(0);
  return true;
}

/**
 * The raw indices of the rows that pass `spec[1]` (a push or add loop's condition, or null), in the
 * loop's order, found by a kernel compiled once per shape; kept over every row as a scalar loop's
 * answer is (the target's contents do not decide which rows pass). Null when the condition is none
 * the kernel reads. The array is shared: read it before the next call.
 */
export function passingRows(
  spec: unknown[],
  read: { kinds: string; cols: Columns },
  srcs: (Source | undefined)[],
  idx: ArrayLike<number> | null,
  n: number,
): { rows: ArrayLike<number>; m: number } | null {
  const cond = spec[1];
  const key = `${read.kinds}\u0000${shapeText(spec)}`;
  const lits: [number, string][] = [];
  let kernel = ReflectApply(MapGet, pushes, [key]) as PushKernel | undefined;
  const g: Gen = { kinds: read.kinds, used: [], lits, raw: [] };
  const condCode = cond === null ? 'true' : code(cond, g);
  if (condCode === undefined) return null;
  if (kernel === undefined) {
    let litLoad = '';
    for (let j = 0; j < lits.length; j++) litLoad += `const L${j} = L[${j}]; `;
    kernel = NewFunction(
      'c',
      'L',
      'idx',
      'n',
      'out',
      `${loads(read.kinds, false)} ${litLoad} let m = 0;
      if (idx === null) for (let r = 0; r < n; r++) { if (${condCode}) out[m++] = r; }
      else for (let k = 0; k < n; k++) { const r = idx[k]; if (${condCode}) out[m++] = r; }
      return m;`,
    ) as PushKernel;
    if ((ReflectApply(MapSizeGetter, pushes, []) as number) >= MAX_COMPILED) ReflectApply(MapClear, pushes, []);
    ReflectApply(MapSet, pushes, [key, kernel]);
  }
  const L = literalCodes(lits, srcs);
  const none = new Float64Array(0);
  const arrays = idx === null ? arraysOf(srcs) : null;
  let rows: ArrayLike<number> | null = arrays === null ? null : keptAnswer(key, arrays, n, none);
  let m = rows === null ? 0 : rows.length;
  if (rows === null) {
    if (pushRows.length < n) pushRows = new Uint32Array(n);
    m = kernel(read.cols, L, idx, n, pushRows);
    rows = pushRows;
    if (arrays !== null && m <= KEPT_PUSHES) {
      const out = new Float64Array(m);
      for (let j = 0; j < m; j++) out[j] = pushRows[j]!;
      keep({ key, arrays, n, start: none, out });
    }
  }
  return { rows, m };
}

/** A loop answered with the locals' values `values` (a date loop's: data/dateExtremeLoop.ts), for `took(values.length)`. */
export function answerWith(values: unknown[]): void {
  answer = values;
}

/** A loop answered with nothing to write back (an add loop's: data/setAddLoop.ts): `took(0)` then reads an empty answer. */
export function answeredInPlace(): void {
  answer = new Float64Array(0);
}

/** The most rows a push loop's kept answer holds (8 bytes each). */
const KEPT_PUSHES = 1 << 18;

/**
 * Each row's value (a number, or null where it is missing) at the end of `xs`, in order: the array is
 * a real one only the run's code holds, with no setter to reach, so each goes where its push puts it.
 */
function pushValues(xs: unknown[], V: ArrayLike<number>, M: ArrayLike<number>, rows: ArrayLike<number>, m: number) {
  let at = xs.length;
  for (let j = 0; j < m; j++) {
    const r = rows[j]!;
    xs[at++] = M[r] !== 0 ? V[r] : null;
  }
}

/**
 * Whether `spec` is a pick loop's (its caller then makes the row: settlePick).
 */
export const isPick = (spec: unknown): boolean => NativeArray.isArray(spec) && spec[0] === 'pick';

/**
 * After pickLoop answered: the row it keeps, made by `row` from its raw index (as the loop would have
 * built it), handed to `tookScalar`; false when `row` cannot make it (the loop then runs as written).
 */
export function settlePick(row: (raw: number) => unknown): boolean {
  const at = picked;
  picked = -2;
  if (at === -2) return false;
  if (at === -1) {
    answer = [null];
    return true;
  }
  const made = row(at);
  if (made === undefined) return false;
  answer = [made];
  return true;
}
