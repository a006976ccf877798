/**
 * Chains of array methods on a column's array, `t.array(col).filter(f).map(g).length`, evaluated on
 * the column's typed data instead of one call of each callback per element: the guest side of
 * src/runtime/prepare/arrayChains.ts. The preparation rewrites (inserting text only)
 *   t.array('A').filter(v => v != null).map(v => v / 1e6)   as
 *   __sbirtools_chain.e(__sbirtools_chain.a((0,__sbirtools_chain.t(t)).array('A')).filter(v => v != null).map(v => v / 1e6))
 * and only when every callback is an inline function of its one parameter whose body reads nothing
 * but that parameter, literals and operators (so it cannot run user code, see or change anything, and
 * when it runs makes no difference). `t` lets a host table's `array(col)` answer with a recorder
 * instead of the copy; `a` passes a recorder on, or makes one for an array `t.array(col)` handed out
 * that still holds the column's values. The recorder's ops run at the end (`.length`, the sum
 * reduce, some/every/find, or `e`, which makes the array) as derive's typed evaluation
 * (fast/deriveEval.ts) of each callback's expression over the column. Anything it cannot evaluate
 * there replays the methods as written on the array `t.array(col)` gives, in order.
 * See docs/architecture.md ("Chains on a column's array").
 */
import { ARRAY_CHAIN_GLOBAL, ARRAY_CHAIN_MEMO_ENTRIES, ARRAY_CHAIN_MIN_LENGTH } from '../../schema/arrayChain.js';
import { expressionBody, type Node } from '../closure/arrowSource.js';
import type { ColumnTable } from 'arquero';
import { arrayOrigin, hostTableMethods } from '../data/columnArrays.js';
import { shareValues, unshareValues } from '../data/rowLoop.js';
import { LazyColumn, dictStrings } from '../data/lazyColumn.js';
import {
  ArrayIsArray,
  ArrayPrototypeSlice,
  arrayIterationIntact,
  FunctionPrototypeToString,
  NativeArray,
  NativeSet,
  ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetPrototypeOf,
  SafeMap,
  SafeSet,
  SafeWeakMap,
  ReflectApply,
  SetSizeGetter,
} from '../intrinsics.js';
import { evalNode, truthy } from './deriveEval.js';
import { GIVE_UP, valueReader, type Env, type Vec } from './deriveVec.js';
import type { TextPages } from '../data/textPages.js';
import { featureNode, textClasses, textNumbers, textTruth, truthCount } from './textClasses.js';

const G = globalThis;
const ArrayPrototype = NativeArray.prototype;
const NativeFilter = ArrayPrototype.filter;
const NativeMap = ArrayPrototype.map;
const NativeReduce = ArrayPrototype.reduce;
const NativeSome = ArrayPrototype.some;
const NativeEvery = ArrayPrototype.every;
const NativeFind = ArrayPrototype.find;
const SpeciesGetter = ObjectGetOwnPropertyDescriptor(NativeArray, Symbol.species)?.get;
/** Whether the guest's JavaScript is compiled (V8): on QuickJS every chain runs as written. */
const COMPILED = typeof (G.Error as { captureStackTrace?: unknown }).captureStackTrace === 'function';
const METHODS: Array<[string, unknown]> = [
  ['filter', NativeFilter],
  ['map', NativeMap],
  ['reduce', NativeReduce],
  ['some', NativeSome],
  ['every', NativeEvery],
  ['find', NativeFind],
  ['constructor', NativeArray],
];

/** Whether `o`'s own `key` is a data property holding `value`. */
function holds(o: object, key: PropertyKey, value: unknown): boolean {
  const d = ObjectGetOwnPropertyDescriptor(o, key);
  return d !== undefined && 'value' in d && d.value === value;
}

/**
 * Whether `filter`, `map` and `reduce` on `xs` are the native ones making plain Arrays (no own method,
 * no patched prototype, no species), so replaying them with ReflectApply is the call as written.
 */
function nativeMethods(xs: unknown[]): boolean {
  if (ObjectGetPrototypeOf(xs) !== ArrayPrototype) return false;
  // index loops here and below: a for-of would call the session's array iterator, which a run may replace
  for (let k = 0; k < METHODS.length; k++) {
    const [key, value] = METHODS[k]!;
    if (ObjectGetOwnPropertyDescriptor(xs, key) !== undefined || !holds(ArrayPrototype, key, value)) return false;
  }
  const species = ObjectGetOwnPropertyDescriptor(NativeArray, Symbol.species);
  return species !== undefined && species.get === SpeciesGetter;
}

/**
 * The column's values as derive's evaluation reads them, for a number (not date) or dictionary
 * column, else undefined (read from the column object itself: no table method runs).
 */
function columnVec(col: LazyColumn): Vec | undefined {
  // asked first: `data()` of text not read in pages would fetch the whole column
  const kind = col.kind;
  if ((kind !== 'dict' && kind !== 'float64') || col.type === 'date') return undefined;
  const raw = col.data();
  if (raw.kind === 'dict') {
    const d = dictStrings(raw);
    const all = d.all();
    const values: unknown[] = [null];
    for (let k = 0; k < all.length; k++) values[k + 1] = all[k];
    return { k: 'codes', codes: d.canonical(raw.codes), values };
  }
  if (raw.kind === 'float64' && (raw.type === 'number' || raw.type === 'integer'))
    return { k: 'num', v: raw.values, valid: raw.valid };
  return undefined;
}

/** Whether `xs` still holds every value of the column (a guest may have written into an array it got). */
function holdsColumn(xs: unknown[], vec: Vec): boolean {
  const n = xs.length;
  if (vec.k === 'codes') {
    const { codes, values } = vec;
    if (codes.length !== n) return false;
    for (let i = 0; i < n; i++) if (xs[i] !== values[codes[i]! + 1]) return false;
    return true;
  }
  if (vec.k !== 'num' || vec.v.length !== n) return false;
  const { v: values, valid } = vec;
  for (let i = 0; i < n; i++) {
    const x = xs[i];
    if (valid && !valid[i]) {
      if (x !== null) return false;
      continue;
    }
    const v = values[i]!;
    // Object.is: -0 apart from 0, NaN equal to itself
    if (x !== v ? x === x || v === v : v === 0 && 1 / (x as number) !== 1 / v) return false;
  }
  return true;
}

/** The chains `a` handed out (a WeakMap lookup runs no guest code, where `instanceof` could). */
const chains = new SafeWeakMap<object, Chain>();

/**
 * The arrays `e` made from a chain evaluated on a number or dictionary column, to that chain: a bound
 * name's `NAME.reduce((s, v) => s + v, <number>)` reads its sum from the chain (`r`) while NAME holds
 * one (src/runtime/prepare/arrayChains.ts `boundChain`: nothing but those reduces and `NAME.length`
 * reads it, and it runs as a true local, so the array is never written).
 */
const madeBy = new SafeWeakMap<object, Chain>();

/** The kept copies (MemoEntry.made) handed to a bound name by `e(x, 1)`, to their entry (see `r`). */
const lent = new SafeWeakMap<object, MemoEntry>();

type Op = { kind: 'filter' | 'map'; fn: unknown };

/** A chain's evaluation: the element values over the table's rows, the rows kept (null: all), a test's truth. */
interface Evaluated {
  n: number;
  vec: Vec;
  keep: Uint8Array | null;
  test?: Uint8Array;
  /** Answers read off a kept evaluation (`reduce` sums by their start, the kept rows' count, a lent array's least and greatest): pure functions of it. */
  sums?: Map<string, number>;
  count?: number;
  lo?: number;
  hi?: number;
  /** How many elements a Set of the kept elements holds (SameValueZero), once asked (`e(x, 3)`). */
  distinct?: number;
}

/** A chain's result the session keeps: its column, its key (memoKey), its evaluation and the array it made. */
export interface MemoEntry {
  col: LazyColumn;
  key: string;
  r: Evaluated;
  /** A copy of the array the chain made, never handed out (null until one was made). */
  made: unknown[] | null;
  /** That array sorted by `(a, b) => a - b` / `b - a` (keptChainSort), never handed out; numbers only. */
  asc?: unknown[];
  desc?: unknown[];
}

/**
 * The last ARRAY_CHAIN_MEMO_ENTRIES chains evaluated on typed data, most recent first: a warm session
 * re-running a program (an agent re-running or extending its question) evaluates the same chain on
 * the same column again, and the answer is a pure function of the two (see Chain.memo).
 */
const memoEntries: MemoEntry[] = [];

/** The ops' kinds and callbacks' source texts, or null when a callback's text cannot be read. */
function memoKey(ops: Op[]): string | null {
  let key = '';
  for (let k = 0; k < ops.length; k++) {
    const op = ops[k]!;
    let src: unknown;
    try {
      src = ReflectApply(FunctionPrototypeToString, op.fn, []);
    } catch {
      return null;
    }
    if (typeof src !== 'string') return null;
    key += `${op.kind}\u0000${src.length}\u0000${src}`;
  }
  return key;
}

/**
 * Whether `slice` on an array the prelude made calls nothing of the run's: Array.prototype's
 * `constructor` is the native Array (a data property) and its species getter the native one.
 */
function sliceIsNative(): boolean {
  if (!holds(ArrayPrototype, 'constructor', NativeArray)) return false;
  const species = ObjectGetOwnPropertyDescriptor(NativeArray, Symbol.species);
  return species !== undefined && species.get === SpeciesGetter;
}

/** Where a chain starts: the column's values and the array `t.array(col)` gives (made when first needed). */
interface Start {
  /** The column the values are read from (what the session's kept results are found by). */
  col: LazyColumn;
  vec: Vec;
  n: number;
  xs: unknown[] | null;
  make: () => unknown[];
  /**
   * The column's values as `t.array(col)` copies them (boxed once per session), read only, when the
   * session has them already; null when not (`make` then reads the column's typed values: boxing a
   * number column first would make every value twice on a session's first run).
   */
  values: () => readonly unknown[] | null;
  /** A long text column's pages the host can scan (`vec` is then text): filters and tests of the value's class only. */
  pages?: TextPages;
}

/** The recorded chain: where it starts and the methods called on it so far. */
class Chain {
  /** The text the session's kept results know this chain by (memoKey), once asked; null: none. */
  private key: string | null | undefined = undefined;

  constructor(
    readonly start: Start,
    readonly ops: Op[],
  ) {}

  filter(fn: unknown): Chain {
    return chain(this.start, withOp(this.ops, { kind: 'filter', fn }));
  }

  map(fn: unknown): Chain {
    return chain(this.start, withOp(this.ops, { kind: 'map', fn }));
  }

  get length(): number {
    const r = this.evaluate();
    if (!r) return (this.replay() as unknown[]).length;
    const keep = r.keep;
    // kept with the evaluation: the same chain again (a kept evaluation) counts nothing
    return keep === null ? r.n : (r.count ??= keptCount(keep, r.n));
  }

  /** Only the sum shape (the preparation checks the reducer is `(s, v) => s + v` and `init` a literal). */
  reduce(fn: unknown, init: unknown): unknown {
    const r = this.evaluate();
    if (!r || r.vec.k === 'text') return ReflectApply(NativeReduce, this.replay(), [fn, init]);
    if (typeof init !== 'number') return this.sum(r, init);
    // the sum is a function of the evaluation and the start (by its value: -0 apart from 0); a kept
    // evaluation (the same chain again) keeps its sums
    const key = init === 0 && 1 / init < 0 ? '-0' : `${init}`;
    const known = r.sums?.get(key);
    if (known !== undefined) return known;
    const s = this.sum(r, init);
    if (typeof s === 'number') (r.sums ??= new SafeMap<string, number>()).set(key, s);
    return s;
  }

  /** `(s, v) => s + v` from `init` over the kept elements of `r`, in order, as the callback adds them. */
  private sum(r: Evaluated, init: unknown): unknown {
    let s = init as number;
    const { keep, n, vec } = r;
    if (vec.k === 'num' && vec.valid === null) {
      const v = vec.v;
      if (keep === null) for (let i = 0; i < n; i++) s = s + v[i]!;
      else for (let i = 0; i < n; i++) if (keep[i]) s = s + v[i]!;
      return s;
    }
    if (vec.k === 'num') {
      const { v, valid } = vec;
      for (let i = 0; i < n; i++)
        if (keep === null || keep[i]) s = s + (valid![i] ? v[i]! : (null as unknown as number));
      return s;
    }
    const read = valueReader(vec);
    for (let i = 0; i < n; i++) if (keep === null || keep[i]) s = s + (read(i) as number);
    return s;
  }

  some(fn: unknown): unknown {
    const row = this.first(fn, 1);
    return row === undefined ? ReflectApply(NativeSome, this.replay(), [fn]) : row >= 0;
  }

  every(fn: unknown): unknown {
    const row = this.first(fn, 0);
    return row === undefined ? ReflectApply(NativeEvery, this.replay(), [fn]) : row < 0;
  }

  find(fn: unknown): unknown {
    const r = this.evaluate(fn);
    if (!r) return ReflectApply(NativeFind, this.replay(), [fn]);
    const row = firstKept(r.keep, r.test!, 1, r.n);
    if (row < 0) return undefined;
    const { xs, pages } = this.start;
    if (xs === null && pages) return pages.get(row);
    return xs === null || this.ops.some((op) => op.kind === 'map') ? valueReader(r.vec)(row) : xs[row];
  }

  /**
   * How many elements `new Set(<the array this chain makes>)` holds, or undefined (the array is then
   * made): for a number, boolean or dictionary evaluation, the kept elements' distinct values as the
   * Set tells them apart (SameValueZero: -0 is 0, NaN one value), kept with the evaluation.
   */
  distinct(): number | undefined {
    const r = this.evaluate();
    if (!r || (r.vec.k !== 'num' && r.vec.k !== 'codes' && r.vec.k !== 'bool')) return undefined;
    return (r.distinct ??= distinctOf(r.vec, r.keep, r.n));
  }

  /** The first kept row whose callback result's truth is `want` (-1: none), or undefined to replay. */
  private first(fn: unknown, want: 0 | 1): number | undefined {
    const r = this.evaluate(fn);
    return r ? firstKept(r.keep, r.test!, want, r.n) : undefined;
  }

  /**
   * The array the chain as written makes. The session keeps a copy of the last few it made (never
   * handed out): the same chain again answers a fresh copy of it (a `slice`, a copy of pointers).
   */
  array(lend = false): unknown[] {
    const r = this.evaluate();
    if (!r) return this.replay();
    const kept = this.memo();
    const sums = r.vec.k === 'num' || r.vec.k === 'codes';
    if (lend && sums && kept !== undefined && kept.made !== null) {
      // a bound name only read as `.length` and through `r` (arrayChains.ts boundChain): the kept copy
      // itself; the write-back gives the global a copy of its own (data/rowLoop.ts `release`)
      const made = kept.made;
      shareValues(made);
      madeBy.set(made, this);
      lent.set(made, kept);
      return made;
    }
    if (kept !== undefined && kept.made !== null && sliceIsNative()) {
      const copy = ReflectApply(ArrayPrototypeSlice, kept.made, []) as unknown[];
      if (sums) madeBy.set(copy, this);
      return copy;
    }
    const out = this.make(r);
    if (sums) madeBy.set(out, this);
    // the copy kept is the one never handed out (the caller may write into its own)
    if (kept !== undefined && sliceIsNative()) kept.made = ReflectApply(ArrayPrototypeSlice, out, []);
    return out;
  }

  /** The array the chain makes, built from its evaluation `r`. */
  private make(r: Evaluated): unknown[] {
    const { keep, n } = r;
    const count = keep === null ? n : (r.count ??= keptCount(keep, n));
    const out = new NativeArray<unknown>(count);
    // no map: the column's own values when the session has them (its numbers already boxed: copied,
    // not made again); else read from the column's typed values below, the same values
    const own = this.ops.some((op) => op.kind === 'map') ? null : (this.start.xs ?? this.start.values());
    const vec = r.vec;
    let j = 0;
    const pages = this.start.pages;
    if (own !== null) {
      for (let i = 0; i < n; i++) if (keep === null || keep[i]) out[j++] = own[i];
    } else if (pages && vec.k === 'text') {
      for (let i = 0; i < n; i++) if (keep === null || keep[i]) out[j++] = pages.get(i);
    } else if (vec.k === 'num') {
      const { v, valid } = vec;
      // as data/boxNumbers.ts stores them: an integer in int32 as a small integer (no heap number each)
      for (let i = 0; i < n; i++)
        if (keep === null || keep[i]) {
          if (valid === null || valid[i]) {
            const x = v[i]!;
            const s = x | 0;
            out[j++] = s === x && (s !== 0 || 1 / x > 0) ? s : x;
          } else out[j++] = null;
        }
    } else if (vec.k === 'codes') {
      const { codes, values } = vec;
      for (let i = 0; i < n; i++) if (keep === null || keep[i]) out[j++] = values[codes[i]! + 1];
    } else {
      const read = valueReader(vec);
      for (let i = 0; i < n; i++) if (keep === null || keep[i]) out[j++] = read(i);
    }
    return out;
  }

  /** The methods as written, in order, on the array `t.array(col)` gave (a callback's error is the user's). */
  private replay(): unknown[] {
    const start = this.start;
    let xs = (start.xs ??= start.make());
    const ops = this.ops;
    for (let k = 0; k < ops.length; k++)
      xs = ReflectApply(ops[k]!.kind === 'filter' ? NativeFilter : NativeMap, xs, [ops[k]!.fn]);
    return xs;
  }

  /**
   * The element values (a Vec over the table's rows) and the rows kept (null: all), or undefined to
   * replay. Without a test, the session's kept result of the same chain when there is one (see
   * `memo`), else the result computed now, then kept.
   */
  private evaluate(test?: unknown): Evaluated | undefined {
    if (this.start.pages) return this.evaluateText(this.start.pages, test);
    if (test !== undefined) return this.compute(test);
    const kept = this.memo();
    if (kept !== undefined) return kept.r;
    const r = this.compute(undefined);
    if (r !== undefined) this.keep(r);
    return r;
  }

  /** This chain's kept entry once evaluated (the same as memo: for fast/handSort.ts through chainToSort). */
  kept(): MemoEntry | undefined {
    return this.memo();
  }

  /**
   * This chain's kept entry, or undefined. A chain's result depends on nothing but its column and the
   * source text of each callback: a callback is evaluated here only when its body reads nothing but its
   * parameter, literals and operators (callbackBody), so the same text gives the same tree, and a text
   * some callback could not be evaluated from was never kept.
   */
  private memo(): MemoEntry | undefined {
    const key = (this.key ??= memoKey(this.ops));
    if (key === null) return undefined;
    const col = this.start.col;
    for (let e = 0; e < memoEntries.length; e++) {
      const entry = memoEntries[e]!;
      if (entry.col !== col || entry.key !== key) continue;
      for (let j = e; j > 0; j--) memoEntries[j] = memoEntries[j - 1]!;
      memoEntries[0] = entry;
      return entry;
    }
    return undefined;
  }

  /** Keeps `r`, this chain's result, as the session's most recent (the oldest falls off). */
  private keep(r: Evaluated): void {
    const key = (this.key ??= memoKey(this.ops));
    if (key === null) return;
    // no array method is called (a run may have replaced them)
    const n = memoEntries.length < ARRAY_CHAIN_MEMO_ENTRIES ? memoEntries.length + 1 : ARRAY_CHAIN_MEMO_ENTRIES;
    for (let j = n - 1; j > 0; j--) memoEntries[j] = memoEntries[j - 1]!;
    memoEntries[0] = { col: this.start.col, key, r, made: null };
  }

  /** The evaluation itself (evaluate without the session's kept results). */
  private compute(test: unknown): Evaluated | undefined {
    // no table: every tree evaluated here starts from the column's Vec (no Column node reads one)
    const env: Env = { t: null as never, n: this.start.n, rows: null };
    let keep: Uint8Array | null = null;
    try {
      // every callback is evaluated over every row: it is pure, and a row not kept is never read
      let vec = this.start.vec;
      const ops = this.ops;
      for (let k = 0; k < ops.length; k++) {
        const op = ops[k]!;
        const body = callbackBody(op.fn as Function, vec);
        if (!body) return undefined;
        const out = evalNode(env, body, {});
        if (op.kind === 'map') {
          vec = out;
          continue;
        }
        const m = truthy(env, out);
        if (keep === null) keep = m.slice();
        else andInto(keep, m, env.n);
      }
      // a text value is read a page at a time per row (deriveEval's per-text path); not here
      if (vec.k === 'text' || vec.k === 'date') return undefined;
      if (test === undefined) return { n: env.n, vec, keep };
      // some/every/find: the truth of their callback on every row
      const body = callbackBody(test as Function, vec);
      if (!body) return undefined;
      return { n: env.n, vec, keep, test: truthy(env, evalNode(env, body, {})) };
    } catch (e) {
      if (e === GIVE_UP) return undefined;
      return undefined; // an operator this cannot copy threw: the methods as written give the error
    }
  }

  /**
   * A chain of filters (and a some/every/find test) over long text whose callbacks only tell null,
   * the empty string, their literals and any other string apart (fast/textClasses.ts): each
   * answered from the host's scans of the column's bytes, no row decoded; a last map whose callback
   * gives a number per row from the same answers (`a => a ? a.length : 0`: fast/textClasses.ts
   * `textNumbers`) for `.length` or the sum. Undefined (replay) for any other map or callback.
   */
  private evaluateText(pages: TextPages, test: unknown): Evaluated | undefined {
    const { n, vec } = this.start;
    const truth = (fn: unknown) => {
      const body = callbackBody(fn as Function, { k: 'const', value: null });
      const classes = body && textClasses(body);
      return classes && textTruth(classes, pages, n);
    };
    let keep: Uint8Array | null = null;
    // the truths are kept for the session (textTruth): a second filter ands into a copy of the first
    let own = false;
    const ops = this.ops;
    for (let k = 0; k < ops.length; k++) {
      const op = ops[k]!;
      if (op.kind === 'map') {
        // a last map to numbers (`a => a ? a.length : 0`), for `.length` or the sum only: its values per row
        if (k !== ops.length - 1 || test !== undefined) return undefined;
        const body = callbackBody(op.fn as Function, { k: 'const', value: null });
        const v = body && textNumbers(body, pages, n);
        return v && { n, vec: { k: 'num', v, valid: null }, keep };
      }
      const m = truth(op.fn);
      if (!m) return undefined;
      if (keep === null) keep = m;
      else {
        if (!own) keep = new Uint8Array(keep);
        own = true;
        andInto(keep, m, n);
      }
    }
    // a kept truth's count is kept with it: `.length` again counts nothing
    if (test === undefined)
      return keep !== null && !own ? { n, vec, keep, count: truthCount(keep, n) } : { n, vec, keep };
    const t = truth(test);
    return t && { n, vec, keep, test: t };
  }
}

// Loops over every row, each a function that ends with it: V8 compiles a loop that runs once per
// call while it runs, and code after it that has not run yet throws that compile away again on
// every later call (docs/architecture.md, "Inside the prelude").
function keptCount(keep: Uint8Array, n: number): number {
  let count = 0;
  for (let i = 0; i < n; i++) count += keep[i]!;
  return count;
}

function andInto(keep: Uint8Array, m: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) keep[i] = keep[i]! & m[i]!;
}

/** The first row kept (`keep` null: every row) whose `test` byte is `want`, or -1. */
function firstKept(keep: Uint8Array | null, test: Uint8Array, want: 0 | 1, n: number): number {
  for (let i = 0; i < n; i++) if ((keep === null || keep[i]) && test[i] === want) return i;
  return -1;
}

/** `ops` and then `op`, in a new array (no spread: it would call the array iterator a run may replace). */
function withOp(ops: Op[], op: Op): Op[] {
  const out: Op[] = [];
  for (let k = 0; k < ops.length; k++) out[k] = ops[k]!;
  out[ops.length] = op;
  return out;
}

function chain(start: Start, ops: Op[]): Chain {
  const c = new Chain(start, ops);
  chains.set(c, c);
  return c;
}

/**
 * The callback's body as an expression tree derive's evaluation reads, with its parameter standing
 * for `vec`; undefined when it is not an arrow or function of one plain parameter returning one
 * expression of that parameter, literals, `undefined`/`NaN`/`Infinity` and operators.
 */
function callbackBody(fn: Function, vec: Vec): Node | undefined {
  const f = expressionBody(fn, 1, true);
  return f && convert(f.body, f.params[0]!, vec);
}

const CONSTANT_NAMES = new Set(['undefined', 'NaN', 'Infinity']);

function convert(node: Node, param: string, vec: Vec): Node | undefined {
  // a long text value (read through the host's scans: evaluateText) may be read through its features
  if (vec.k === 'const') {
    const feature = featureNode(node, (n) => n.type === 'Identifier' && n.name === param);
    if (feature) return feature;
  }
  switch (node.type) {
    case 'Identifier':
      if (node.name === param) return { type: 'Vec', vec };
      return CONSTANT_NAMES.has(node.name as string) ? { type: 'Constant', name: node.name } : undefined;
    case 'Literal':
      return node;
    case 'BinaryExpression':
    case 'LogicalExpression': {
      const left = convert(node.left as Node, param, vec);
      const right = convert(node.right as Node, param, vec);
      return left && right ? { type: node.type, operator: node.operator, left, right } : undefined;
    }
    case 'UnaryExpression': {
      const argument = convert(node.argument as Node, param, vec);
      return argument ? { type: node.type, operator: node.operator, argument } : undefined;
    }
    case 'ConditionalExpression': {
      const [test, consequent, alternate] = [node.test, node.consequent, node.alternate].map((x) =>
        convert(x as Node, param, vec),
      );
      return test && consequent && alternate ? { type: node.type, test, consequent, alternate } : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * `a(xs)`: `xs` itself when it is a Chain (`t(X).array(col)` made it); a Chain when `xs` is an array
 * `t.array(col)` handed out over a number or dictionary column that still holds its values, and the
 * array methods are the native ones; else `xs` itself.
 */
function start(xs: unknown): unknown {
  if (!COMPILED || xs === null || typeof xs !== 'object' || chains.get(xs) !== undefined) return xs;
  if (!ArrayIsArray(xs) || xs.length < ARRAY_CHAIN_MIN_LENGTH) return xs;
  const col = arrayOrigin(xs);
  if (!col || !nativeMethods(xs)) return xs;
  const vec = columnVec(col);
  if (!vec || !holdsColumn(xs, vec)) return xs;
  return chain({ col, vec, n: xs.length, xs, make: () => xs, values: () => xs }, []);
}

/**
 * A Chain over every row of `col` (the values `t.array(col)` gives, `make` making them if the chain
 * replays) for a pluck the preparation wraps in `a(...)` (data/rowChain.ts, `objects().map(r => r.F)`
 * over every row of an unfiltered, unordered table, F a host column): for a number (not date) or
 * dictionary column of at least ARRAY_CHAIN_MIN_LENGTH rows with the native array methods, as `a`
 * would record for the array; else undefined (the pluck answers the array).
 */
export function columnChain(col: LazyColumn, make: () => unknown[]): unknown {
  if (!COMPILED || col.length < ARRAY_CHAIN_MIN_LENGTH || col.type === 'date' || !nativeMethods([])) return undefined;
  const vec = columnVec(col);
  if (!vec) return undefined;
  return chain({ col, vec, n: col.length, xs: null, make, values: () => col.builtValues() }, []);
}

/**
 * `t(X)`: for a host table whose table methods are the installed ones, an object whose `array(col)`
 * calls what `X.array(col)` calls and, for a number or dictionary column, answers with a Chain
 * instead of the copy (made only if the chain replays); else `X` itself.
 */
function receiver(x: unknown): unknown {
  if (!COMPILED) return x;
  const m = hostTableMethods(x);
  if (!m || !nativeMethods([])) return x;
  const t = x as ColumnTable;
  return {
    array(name: unknown): unknown {
      // the calls `array(name)` makes, in its order: column, then the filter and order tests
      const col = ReflectApply(m.column, t, [name]) as unknown;
      const make = () => ReflectApply(m.array, t, [name]) as unknown[];
      if (!(col instanceof LazyColumn) || ReflectApply(m.isFiltered, t, []) || ReflectApply(m.isOrdered, t, []))
        return make();
      if (col.length < ARRAY_CHAIN_MIN_LENGTH || col.type === 'date') return make();
      if (col.kind === 'utf8') {
        // long text the host can scan: its pages are fetched only if the chain replays
        const pages = col.hostScanPages(col.length);
        if (pages === null) return make();
        const vec: Vec = { k: 'text', name: '' }; // read through `pages` only
        return chain({ col, vec, n: col.length, xs: null, make, values: () => null, pages }, []);
      }
      const vec = columnVec(col); // loads the column now, where `array()` would
      if (!vec) return make();
      return chain({ col, vec, n: col.length, xs: null, make, values: () => col.builtValues() }, []);
    },
  };
}

/**
 * `r(xs)`, the receiver of a bound name's sum reduce: the chain that made `xs` when `e` made it and the
 * reduce `xs.reduce` finds is the native one (no own property, Array.prototype's own data property), so
 * the chain's reduce answers the sum the callback `(s, v) => s + v` would give over its elements; else
 * `xs` itself, for good (its reduce may be the run's own, which could write into it).
 */
function reduceOf(xs: unknown): unknown {
  const c = xs !== null && typeof xs === 'object' ? madeBy.get(xs) : undefined;
  if (c === undefined) return xs;
  const list = xs as unknown[];
  if (
    ObjectGetPrototypeOf(list) !== ArrayPrototype ||
    ObjectGetOwnPropertyDescriptor(list, 'reduce') !== undefined ||
    !holds(ArrayPrototype, 'reduce', NativeReduce)
  ) {
    madeBy.delete(list);
    releaseLent(list);
    return xs;
  }
  return c;
}

/** The session's kept copy, lent to a bound name (`lent`): from here on the run's own (the session keeps a new copy). */
export function releaseLent(xs: unknown[]): void {
  const entry = lent.get(xs);
  if (entry === undefined) return;
  lent.delete(xs);
  unshareValues(xs);
  if (entry.made === xs) entry.made = copyOf(xs);
}

/** Whether `xs` is the session's kept copy of a chain's array, lent to a bound name (`e(x, 1)`). */
export function isLent(xs: unknown): xs is unknown[] {
  return xs !== null && typeof xs === 'object' && lent.has(xs);
}

/**
 * `Math.min(...xs)` (`max` false) or `Math.max(...xs)` of a lent array (`isLent`), read off the chain's
 * evaluation and kept with it, or undefined. Lent means a bound name holds it that only `.length`, the
 * sum reduce and these spreads read (src/runtime/prepare/arrayChains.ts `boundChain`; a true local): its
 * elements are the evaluation's kept values, numbers or null (which the call reads as +0). The caller
 * (fast/handSort.ts) has checked that the spread and the callee are the native ones.
 */
export function lentExtreme(xs: unknown[], max: boolean): number | undefined {
  const entry = lent.get(xs);
  if (entry === undefined || madeBy.get(xs) === undefined) return undefined;
  const r = entry.r;
  const vec = r.vec;
  if (vec.k !== 'num') return undefined;
  const known = max ? r.hi : r.lo;
  if (known !== undefined) return known;
  const best = max ? greatestOf(vec.v, vec.valid, r.keep, r.n) : leastOf(vec.v, vec.valid, r.keep, r.n);
  if (max) r.hi = best;
  else r.lo = best;
  return best;
}

// Math.min/Math.max over the kept elements (null as +0): NaN when one is NaN, -0 below +0, Infinity
// (-Infinity) for none. One function per direction, each ending with its loop (see fast/rollupOne.ts).
function leastOf(v: Float64Array, valid: Uint8Array | null, keep: Uint8Array | null, n: number): number {
  let best = Infinity;
  let nan = false;
  for (let i = 0; i < n; i++) {
    if (keep !== null && !keep[i]) continue;
    const x = valid === null || valid[i] ? v[i]! : 0;
    if (x < best) best = x;
    else if (x !== x) nan = true;
    else if (x === 0 && best === 0 && 1 / x < 0) best = x;
  }
  return nan ? NaN : best;
}

function greatestOf(v: Float64Array, valid: Uint8Array | null, keep: Uint8Array | null, n: number): number {
  let best = -Infinity;
  let nan = false;
  for (let i = 0; i < n; i++) {
    if (keep !== null && !keep[i]) continue;
    const x = valid === null || valid[i] ? v[i]! : 0;
    if (x > best) best = x;
    else if (x !== x) nan = true;
    else if (x === 0 && best === 0 && 1 / best < 0) best = x;
  }
  return nan ? NaN : best;
}

/** The distinct values of the kept elements of `vec` (a number, boolean or dictionary Vec) as a Set counts them. */
function distinctOf(vec: Vec, keep: Uint8Array | null, n: number): number {
  const seen = new SafeSet<unknown>();
  if (vec.k === 'codes') {
    // each code's value once: the dictionary's strings (and null at 0) added in the prelude's own Set
    const { codes, values } = vec;
    const marked = new Uint8Array(values.length);
    for (let i = 0; i < n; i++) if (keep === null || keep[i]) marked[codes[i]! + 1] = 1;
    for (let c = 0; c < marked.length; c++) if (marked[c]) seen.add(values[c]);
    return seen.size;
  }
  const read = valueReader(vec);
  for (let i = 0; i < n; i++) if (keep === null || keep[i]) seen.add(read(i));
  return seen.size;
}

const SetProto = NativeSet.prototype;
const SetAdd = SetProto.add;

/**
 * Whether `new Set(xs)` of a plain array `xs` the prelude made, then its `size`, runs nothing of the
 * run's: Set.prototype's `add` and `size` getter, Array.prototype's iterator and the array iterator's
 * `next` are the session's own (descriptors read: no getter runs).
 */
function setIsNative(): boolean {
  if (!holds(SetProto, 'add', SetAdd) || ObjectGetOwnPropertyDescriptor(SetProto, 'size')?.get !== SetSizeGetter)
    return false;
  return arrayIterationIntact();
}

/** The constructor `new (k(Set))(e(x, 3))` calls, from `k` to `e`; the Set's size `e` found, from `e` to `u`. */
let setCallee: unknown;
let pendingSize: number | undefined;

/** `k(C)`: `C` itself, noted as what the `new` around a chain's `e(x, 3)` constructs. */
function setConstructor(c: unknown): unknown {
  setCallee = c;
  return c;
}

/**
 * `u(size)` around `new (k(Set))(e(x, 3)).size`: the size `e` found the Set of the chain's array
 * holds, when it answered an empty array in place of that array; else `size` itself.
 */
function setSize(size: unknown): unknown {
  const known = pendingSize;
  pendingSize = undefined;
  return known === undefined ? size : known;
}

/** A fresh array of `xs`'s elements (an index loop: no method a run may have replaced runs). */
function copyOf(xs: unknown[]): unknown[] {
  const n = xs.length;
  const out = new NativeArray<unknown>(n);
  for (let i = 0; i < n; i++) out[i] = xs[i];
  return out;
}

/**
 * `e(x)`: the array a recorded chain makes, or `x` itself. `e(x, 1)` (a bound name of boundChain) may
 * answer the copy the session keeps of that array, when it has one (Chain.array). `e(x, 2)` (a chain
 * sorted at once through fast/handSort.ts `by`, which the preparation wraps around it) answers the
 * chain itself: `by` takes it (chainToSort) before anything else runs, and it reaches no other code.
 */
function end(x: unknown, lend?: unknown): unknown {
  const c = x !== null && typeof x === 'object' ? chains.get(x) : undefined;
  if (lend === 3) return setOf(c, x);
  // `e(<chain>, 4, 2)`: sorted at once, into a bound name that only reads it (prepare/sortedBound.ts)
  if (lend === 4 && c !== undefined) sortLends.set(x as object, true);
  if (c === undefined || lend === 2 || lend === 4) return x;
  return c.array(lend === 1);
}

/**
 * `e(x, 3)`, the only argument of `new (k(Set))(...)` whose `size` alone is read, inside `u(...)`
 * (src/runtime/prepare/arrayChains.ts `setSizeOf`): when the constructor is the session's Set, whose
 * construction and size run nothing of the run's (setIsNative), and the chain's Set size is known
 * (Chain.distinct), an empty array (the Set made of it is never read) with the size left for `u`;
 * else the chain's array, as `e(x)`.
 */
function setOf(c: Chain | undefined, x: unknown): unknown {
  const callee = setCallee;
  setCallee = undefined;
  pendingSize = undefined;
  if (c === undefined) return x;
  if (callee === NativeSet && setIsNative()) {
    const size = c.distinct();
    if (size !== undefined) {
      pendingSize = size;
      return new NativeArray<unknown>(0);
    }
  }
  return c.array();
}

/**
 * For `by` (fast/handSort.ts) given what `e(<chain>, 2)` answered: when `x` is a Chain, the chain (its
 * `array()` as `e` makes it, its `kept()` entry once evaluated, for keptChainSort); else undefined.
 */
export function chainToSort(x: unknown): { array(): unknown[]; kept(): MemoEntry | undefined } | undefined {
  return x !== null && typeof x === 'object' ? chains.get(x) : undefined;
}

/** The chains `e(<chain>, 4, 2)` handed to `by`: their sorted array goes to a bound name that only reads it. */
const sortLends = new SafeWeakMap<object, true>();

/**
 * Whether `e` answered `x` as `e(<chain>, 4, 2)` (src/runtime/prepare/sortedBound.ts): the sorted array
 * goes to a name that runs as a true local and only reads its length and elements, each element read
 * through `__sbirtools_rowLoop.at` (which gives the name a copy of its own before a read that is not of
 * one of its own elements); the write-back gives the global a copy (data/rowLoop.ts `release`).
 */
export function sortLent(x: unknown): boolean {
  return x !== null && typeof x === 'object' && sortLends.get(x) === true;
}

/**
 * For a lending sort (`sortLent`): the sort the session kept for `entry`'s chain in the direction
 * `desc`, itself (never written: it goes to readers only, as shared values, see above), or undefined.
 */
export function lendChainSort(entry: MemoEntry, desc: boolean): unknown[] | undefined {
  const sorted = desc ? entry.desc : entry.asc;
  if (sorted !== undefined) shareValues(sorted);
  return sorted;
}

/**
 * For a lending sort (`sortLent`) that just sorted the chain's own fresh array `sorted` (every element
 * a number other than NaN): keeps that array itself as the session's sort, and lends it as lendChainSort does.
 */
export function keepLentSort(entry: MemoEntry, desc: boolean, sorted: unknown[]): void {
  if (desc) entry.desc = sorted;
  else entry.asc = sorted;
  shareValues(sorted);
}

/**
 * The array `entry`'s chain makes, sorted by a comparator `(a, b) => a - b` (`desc` false) or `b - a`,
 * as a fresh array when the session kept that sort (`keepChainSort`) and `slice` calls nothing of the
 * run's; else undefined. The sort of the same elements by the same comparator shape is the same array
 * (fast/handSort.ts sorts exactly as Array.prototype.sort does, stable).
 */
export function keptChainSort(entry: MemoEntry, desc: boolean): unknown[] | undefined {
  const sorted = desc ? entry.desc : entry.asc;
  if (sorted === undefined || !sliceIsNative()) return undefined;
  return ReflectApply(ArrayPrototypeSlice, sorted, []) as unknown[];
}

/**
 * Keeps `sorted` (the chain's array just sorted in the direction `desc`, every element a number other
 * than NaN, as fast/handSort.ts found while sorting it: the sort is then a function of the numbers
 * alone) with `entry`, as a copy never handed out.
 */
export function keepChainSort(entry: MemoEntry, desc: boolean, sorted: unknown[]): void {
  if (!sliceIsNative()) return;
  const copy = ReflectApply(ArrayPrototypeSlice, sorted, []) as unknown[];
  if (desc) entry.desc = copy;
  else entry.asc = copy;
}

/**
 * Defines `__sbirtools_chain` (non-writable and non-enumerable: a run cannot replace it; an object,
 * not a function, so error hints never suggest it). It hands out nothing but the arrays given to it
 * and the answers the chain as written gives.
 */
export function installArrayChain(): void {
  ObjectDefineProperty(G, ARRAY_CHAIN_GLOBAL, {
    value: Object.freeze({ a: start, e: end, t: receiver, r: reduceOf, k: setConstructor, u: setSize }),
    writable: false,
    enumerable: false,
    configurable: false,
  });
}
