/**
 * Array methods on objects() without rows: the guest side of the chains src/runtime/prepare/rowChains.ts
 * rewrites. A chain whose callbacks only read fields of their row,
 *   t.objects().filter(r => r.Phase === 'Phase II').length
 *   t.objects().filter(r => r.x > 1).reduce((s, r) => s + r.y, 0)
 *   t.objects().map(r => r.x)
 * gets one inserted argument, `objects(__sbirtools_rowLoop.open(['Phase'], ['filter', 'length']))`.
 * A chain whose last link is a filter, its rows then seen (`t.objects().filter(cb)` held, sliced...),
 * answers with the rows objects() would have built at the positions that passed, built only for those.
 * Given that token, objects() answers with an object that stands for the rows at the chain's first
 * link and has only what that link reads: `length`, or the one method it calls. The method runs the
 * callback over one reused row whose read fields are assigned from the kept value arrays, as
 * Array.prototype's method would over the rows (same order, same arguments the callback can see, same
 * result); a `filter` keeps the positions that passed, and the next link reads those. Before a method
 * stands in for Array.prototype's, that method, `Array.prototype.constructor` and `Array[Symbol.species]`
 * must be the ones the session started with (read as descriptors: no getter of the run's runs); when a
 * run replaced one, the link is the real rows (the first link: objects() as if called bare; after a
 * filter: the rows objects() builds, those that passed), and the replaced method runs on them.
 */
import {
  ArrayIsArray,
  ArrayPrototypeSlice,
  NativeArray,
  NewFunction,
  ObjectCreate,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetPrototypeOf,
  ReflectApply,
  SafeWeakMap,
} from '../intrinsics.js';
import type { RowAddends } from '../fast/rowTruth.js';

/** The methods a chain may call; every link but the last is a `filter`. */
const METHODS = ['filter', 'map', 'reduce', 'forEach', 'some', 'every', 'findIndex'] as const;
type Method = (typeof METHODS)[number];

const ArrayProto = NativeArray.prototype as unknown as Record<string, unknown>;
const ORIGINAL: Record<string, unknown> = {};
for (const m of METHODS) ORIGINAL[m] = ArrayProto[m];
const SPECIES = Symbol.species;
const speciesGetter = ObjectGetOwnPropertyDescriptor(NativeArray, SPECIES)?.get;
const NativeUint32Array = Uint32Array;
const weakGet = SafeWeakMap.prototype.get;
const weakSet = SafeWeakMap.prototype.set;

/** Whether `op` on an array of rows would still run the session's own method (and, for filter and map, make a plain array). */
function intact(op: string): boolean {
  if (op === 'length') return true;
  if (op === 'pluck') op = 'map';
  if (ObjectGetOwnPropertyDescriptor(ArrayProto, op)?.value !== ORIGINAL[op]) return false;
  if (op !== 'filter' && op !== 'map') return true;
  return (
    ObjectGetOwnPropertyDescriptor(ArrayProto, 'constructor')?.value === NativeArray &&
    ObjectGetOwnPropertyDescriptor(NativeArray, SPECIES)?.get === speciesGetter
  );
}

/** Whether `ops` is a chain this path runs: filters, then one method or `length` (a last filter answers its rows). */
function validChain(ops: string[]): boolean {
  if (ops.length === 0) return false;
  for (let i = 0; i < ops.length - 1; i++) if (ops[i] !== 'filter') return false;
  const last = ops[ops.length - 1]!;
  return last === 'length' || last === 'pluck' || (METHODS as readonly string[]).includes(last);
}

type Run = (
  vals: ArrayLike<unknown>[],
  idx: ArrayLike<number> | null,
  pos: ArrayLike<number> | null,
  n: number,
  cb: (...a: unknown[]) => unknown,
  acc: unknown,
  Arr: ArrayConstructor,
) => unknown;

/**
 * Per method: what runs before the loop, for each row, and after it (k: the row's position in this
 * link). A filter writes the positions that pass into `acc` (a Uint32Array of n) and returns how many.
 */
const PARTS: Record<Method, [string, string, string]> = {
  filter: ['let m = 0;', 'if (cb(row, k)) acc[m++] = p;', 'return m;'],
  map: ['const out = new Arr(n);', 'out[k] = cb(row, k);', 'return out;'],
  reduce: ['', 'acc = cb(acc, row, k);', 'return acc;'],
  forEach: ['', 'cb(row, k);', 'return undefined;'],
  some: ['', 'if (cb(row, k)) return true;', 'return false;'],
  every: ['', 'if (!cb(row, k)) return false;', 'return true;'],
  findIndex: ['', 'if (cb(row, k)) return k;', 'return -1;'],
};

const MAX_RUNS = 64;
const runs = new Map<string, Run>();

/** The loop of one method over one list of fields, compiled once (free names: none but its parameters). */
function runFor(op: Method, names: string[]): Run {
  const key = `${op}\u0000${names.join('\u0000')}`;
  let run = runs.get(key);
  if (run) return run;
  const load = names.map((_, k) => `const v${k} = vals[${k}];`).join(' ');
  // the row's fields are its own from the start: an assignment never reaches a setter on Object.prototype
  const fields = names.map((name) => `${JSON.stringify(name)}: undefined`).join(', ');
  const sets = names.map((name, k) => `row[${JSON.stringify(name)}] = v${k}[r];`).join(' ');
  const [before, each, after] = PARTS[op];
  run = NewFunction(
    'vals',
    'idx',
    'pos',
    'n',
    'cb',
    'acc',
    'Arr',
    `${load} const row = { ${fields} }; ${before}
    for (let k = 0; k < n; k++) { const p = pos === null ? k : pos[k]; const r = idx === null ? p : idx[p]; ${sets} ${each} }
    ${after}`,
  ) as Run;
  if (runs.size >= MAX_RUNS) runs.clear();
  runs.set(key, run);
  return run;
}

/** The rows of one chain: `vals[k]` the values of `names[k]` for every table row, `idx` the visible rows (or null). */
interface Chain {
  names: string[];
  /** Made when a link first needs them (null: they cannot be read this way; the link takes the real rows). */
  vals: () => ArrayLike<unknown>[] | null;
  /**
   * For a chain over one long text field of an unfiltered, unordered table: the truth value per
   * table row of a callback that only tests the field against null and literals (fast/textClasses.ts),
   * or undefined for any other callback.
   */
  text: ((cb: unknown) => Uint8Array | undefined) | null;
  /**
   * The truth value per table row of a filter, some, every or findIndex callback that only reads
   * number, boolean and dictionary fields with operators (fast/rowTruth.ts), or undefined for any
   * other callback and when the link's `m` rows are too few for a pass over every table row to pay
   * (null: not asked).
   */
  typed: ((cb: unknown, m: number) => Uint8Array | undefined) | null;
  /** What a reduce callback `(s, r) => s + E` adds per table row (fast/rowTruth.ts), or undefined as for `typed`. */
  addends: ((cb: unknown, m: number) => RowAddends | undefined) | null;
  idx: ArrayLike<number> | null;
  ops: string[];
  /** The rows objects() builds (every visible row, fresh). */
  rows: () => unknown[];
  /** For a `pluck` over every row of an unfiltered, unordered table: notes its array as the column's (or null). */
  origin: PluckOrigin | null;
  /** The rows a chain's last filter answers: the rows objects() builds at visible positions `pos[0..m)`, in order. */
  rowsAt: (pos: ArrayLike<number>, m: number) => unknown[];
}

/**
 * Notes the array a pluck over every row answers as its column's (data/rowObjects.ts pluckOrigin);
 * `chain`, when the preparation wraps the pluck in a chain's `a(...)` (the token's `1`), answers that
 * chain over the column instead of the array (made only if the chain replays), or undefined.
 */
export type PluckOrigin = ((out: unknown[]) => void) & { chain?: (make: () => unknown[]) => unknown };

/** What stands for the rows at link `step`: positions `pos` (or 0..m-1 when null) of the visible rows. */
function link(c: Chain, step: number, pos: ArrayLike<number> | null, m: number): unknown {
  const op = c.ops[step]!;
  if (!intact(op)) {
    // a run replaced the method: the rows themselves, and its method runs on them
    const all = c.rows();
    if (pos === null) return all;
    const out = new NativeArray<unknown>(m);
    for (let i = 0; i < m; i++) out[i] = all[pos[i]!];
    return out;
  }
  const o = ObjectCreate(null) as Record<string, unknown>;
  if (op === 'length') {
    o.length = m;
    return o;
  }
  if (op === 'pluck') {
    o.map = function (): unknown {
      // every row, straight into a chain's `a(...)`: the chain over the column, no array yet, and the
      // values read only if it makes the array as written (a host column over every row: they exist)
      const args = arguments as unknown as unknown[];
      const chained =
        pos === null && c.idx === null && c.origin?.chain
          ? c.origin.chain(() => {
              const vals = c.vals();
              return vals === null
                ? (ReflectApply(ORIGINAL.map as Function, link0(c, pos, m), args) as unknown[])
                : pluck(vals[c.names.length - 1]!, null, null, m);
            })
          : undefined;
      if (chained !== undefined) return chained;
      const vals = c.vals();
      if (vals === null) return ReflectApply(ORIGINAL.map as Function, link0(c, pos, m), args);
      const out = pluck(vals[c.names.length - 1]!, c.idx, pos, m);
      // every row in order: the array `t.array(F)` would give (a chain on it may be typed: fast/arrayChain.ts)
      if (pos === null && c.idx === null && c.origin !== null) c.origin(out);
      return out;
    };
    return o;
  }
  o[op] = function (cb: (...a: unknown[]) => unknown, acc?: unknown): unknown {
    const tested = op === 'filter' || op === 'some' || op === 'every' || op === 'findIndex';
    const truth = tested
      ? ((c.text !== null ? c.text(cb) : undefined) ?? (c.typed !== null ? c.typed(cb, m) : undefined))
      : undefined;
    if (truth) return truthLink(c, step, pos, m, op, truth);
    if (op === 'reduce' && typeof acc === 'number' && arguments.length >= 2 && c.addends !== null) {
      const add = c.addends(cb, m);
      if (add !== undefined) return typeof add === 'number' ? sumConst(acc, add, m) : sumOf(acc, add, c.idx, pos, m);
    }
    const vals = c.vals();
    if (vals === null) {
      // the values cannot be read this way: the rows objects() builds, and the method on them
      const all = c.rows();
      const list = pos === null ? all : pickRows(all, pos, m);
      return ReflectApply(ORIGINAL[op] as Function, list, arguments as unknown as unknown[]);
    }
    const run = runFor(op as Method, c.names);
    if (op !== 'filter') return run(vals, c.idx, pos, m, cb, acc, NativeArray);
    const kept = new NativeUint32Array(m);
    const count = run(vals, c.idx, pos, m, cb, kept, NativeArray) as number;
    // the last link: the code sees the rows that passed (a plain array, as filter makes with the
    // session's own constructor and species: intact() checked them)
    return step === c.ops.length - 1 ? c.rowsAt(kept, count) : link(c, step + 1, kept, count);
  };
  return o;
}

/** The rows objects() builds at positions `pos` (or all when null) of the visible rows. */
function link0(c: Chain, pos: ArrayLike<number> | null, m: number): unknown[] {
  const all = c.rows();
  return pos === null ? all : pickRows(all, pos, m);
}

/**
 * `rows.map(r => r.F)` (the preparation's `pluck`, F the last field read): the callback only reads the
 * reused row's own field, so its values are F's kept values at the visible positions, in a fresh array.
 */
function pluck(v: ArrayLike<unknown>, idx: ArrayLike<number> | null, pos: ArrayLike<number> | null, m: number) {
  // every row of a kept plain array (the prelude's own: never handed out): a slice copies it at once
  // (the link checked Array.prototype.constructor and Array[Symbol.species] are the session's)
  if (
    idx === null &&
    pos === null &&
    ArrayIsArray(v) &&
    ObjectGetPrototypeOf(v) === NativeArray.prototype &&
    v.length === m
  )
    return ReflectApply(ArrayPrototypeSlice, v, []) as unknown[];
  const out = new NativeArray<unknown>(m);
  if (idx === null && pos === null) for (let k = 0; k < m; k++) out[k] = v[k];
  else
    for (let k = 0; k < m; k++) {
      const p = pos === null ? k : pos[k]!;
      out[k] = v[idx === null ? p : idx[p]!];
    }
  return out;
}

/**
 * A filter, some, every or findIndex whose callback's truth value per table row is `truth` (a
 * visible position's table row through the chain's indices).
 */
function truthLink(c: Chain, step: number, pos: ArrayLike<number> | null, m: number, op: string, truth: Uint8Array) {
  const idx = c.idx;
  if (op === 'filter') {
    // `.length` next: only how many passed
    if (c.ops[step + 1] === 'length') return link(c, step + 1, null, countOf(truth, idx, pos, m));
    const whole = idx === null && pos === null && m === truth.length;
    const known = whole ? (ReflectApply(weakGet, wholeRows, [truth]) as KeptRows | undefined) : undefined;
    let kept: Uint32Array, count: number;
    if (known !== undefined) ({ rows: kept, count } = known);
    else {
      kept = new NativeUint32Array(m);
      count = keptInto(truth, idx, pos, m, kept);
      if (whole) ReflectApply(weakSet, wholeRows, [truth, { rows: firstOf(kept, count), count }]);
    }
    return step === c.ops.length - 1 ? c.rowsAt(kept, count) : link(c, step + 1, kept, count);
  }
  const k = firstWith(truth, idx, pos, m, op === 'every' ? 0 : 1);
  if (op === 'findIndex') return k;
  return op === 'some' ? k >= 0 : k < 0;
}

// Each loop in a function that ends with it: V8 compiles a loop that runs once per call while it
// runs, and code after it that has not run yet throws that compile away on every later call
// (docs/architecture.md, "Inside the prelude").
function keptInto(
  truth: Uint8Array,
  idx: ArrayLike<number> | null,
  pos: ArrayLike<number> | null,
  m: number,
  kept: Uint32Array,
): number {
  let count = 0;
  for (let k = 0; k < m; k++) {
    const p = pos === null ? k : pos[k]!;
    if (truth[idx === null ? p : idx[p]!]) kept[count++] = p;
  }
  return count;
}

/**
 * The count of every row's truth bytes, by the bytes (session 19): a callback's bytes over every row
 * are kept for the session (fast/rowTruth.ts) and never written, so the same question again reads
 * its count (half of a warm `t.objects().filter(r => r.m > 2).length` was this loop).
 */
const wholeCounts = new SafeWeakMap<Uint8Array, number>();

function countOf(truth: Uint8Array, idx: ArrayLike<number> | null, pos: ArrayLike<number> | null, m: number): number {
  let count = 0;
  if (idx === null && pos === null) {
    const whole = m === truth.length;
    const known = whole ? (ReflectApply(weakGet, wholeCounts, [truth]) as number | undefined) : undefined;
    if (known !== undefined) return known;
    for (let k = 0; k < m; k++) count += truth[k]!;
    if (whole) ReflectApply(weakSet, wholeCounts, [truth, count]);
  } else
    for (let k = 0; k < m; k++) {
      const p = pos === null ? k : pos[k]!;
      count += truth[idx === null ? p : idx[p]!]!;
    }
  return count;
}

/**
 * The rows every row's truth bytes keep, by the bytes (session 22): kept like their count, and only
 * read (the links and the rows a chain answers read positions, never write them), so a re-run's
 * `t.objects().filter(r => r.H === 'Y').reduce(...)` reads the positions instead of a pass over
 * every row.
 */
interface KeptRows {
  rows: Uint32Array;
  count: number;
}
const wholeRows = new SafeWeakMap<Uint8Array, KeptRows>();

/** The first `count` positions of `all`, in an array of their own (not a view holding all of them). */
function firstOf(all: Uint32Array, count: number): Uint32Array {
  const out = new NativeUint32Array(count);
  for (let k = 0; k < count; k++) out[k] = all[k]!;
  return out;
}

/** `acc` plus `k` once per row, in order (the callback's own sums). */
function sumConst(acc: number, k: number, m: number): number {
  for (let i = 0; i < m; i++) acc = acc + k;
  return acc;
}

/** `acc` plus each row's addend (null: 0), in the link's order. */
function sumOf(
  acc: number,
  add: { v: Float64Array; valid: Uint8Array | null },
  idx: ArrayLike<number> | null,
  pos: ArrayLike<number> | null,
  m: number,
): number {
  const { v, valid } = add;
  for (let k = 0; k < m; k++) {
    const p = pos === null ? k : pos[k]!;
    const r = idx === null ? p : idx[p]!;
    acc = acc + (valid === null || valid[r] ? v[r]! : 0);
  }
  return acc;
}

/** The first position of this link whose row's truth is `want`, or -1. */
function firstWith(
  truth: Uint8Array,
  idx: ArrayLike<number> | null,
  pos: ArrayLike<number> | null,
  m: number,
  want: number,
): number {
  for (let k = 0; k < m; k++) {
    const p = pos === null ? k : pos[k]!;
    if (truth[idx === null ? p : idx[p]!] === want) return k;
  }
  return -1;
}

/** Whether `ops` is a chain this path runs and its first method is the session's own (else objects() answers as if called bare). */
export function chainIntact(ops: string[]): boolean {
  return validChain(ops) && intact(ops[0]!);
}

/** The object objects() answers a rewritten chain with (its first link), once chainIntact(ops). */
export function chainRows(
  names: string[],
  vals: ArrayLike<unknown>[] | (() => ArrayLike<unknown>[] | null),
  idx: ArrayLike<number> | null,
  n: number,
  ops: string[],
  rows: () => unknown[],
  rowsAt: (pos: ArrayLike<number>, m: number) => unknown[],
  text: Chain['text'] = null,
  origin: Chain['origin'] = null,
  typed: Chain['typed'] = null,
  addends: Chain['addends'] = null,
): unknown {
  let made: ArrayLike<unknown>[] | null | undefined = typeof vals === 'function' ? undefined : vals;
  const values = () => (made === undefined ? (made = (vals as () => ArrayLike<unknown>[] | null)()) : made);
  return link({ names, vals: values, text, typed, addends, idx, ops, rows, rowsAt, origin }, 0, null, n);
}

/** The elements of `all` at positions `pos[0..m)`, in a fresh array (the rows that passed a last filter, picked from the rows objects() builds). */
export function pickRows(all: ArrayLike<unknown>, pos: ArrayLike<number>, m: number): unknown[] {
  const out = new NativeArray<unknown>(m);
  for (let i = 0; i < m; i++) out[i] = all[pos[i]!];
  return out;
}
