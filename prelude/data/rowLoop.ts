/**
 * Row loops without rows: the guest side of src/runtime/prepare/rowLoops.ts. The code preparation
 * rewrites a loop whose row is only ever read field by field,
 *   for (const r of t.objects()) { ... r.Company ... r['Award Amount'] ... }
 * by inserting one argument (every character of the user's code stays, docs/architecture.md):
 *   for (const r of t.objects(__sbirtools_rowLoop.open(['Company', 'Award Amount']))) { ... }
 * `open` makes a token; the prelude's `objects()` given that token (and only that token, by identity)
 * answers with an iterator over ONE reused row object (the flyweight) whose read fields `next()`
 * assigns from the value arrays those rows would have been built from (the session's row cache), once
 * per visible row. When the table is not one this path reads (see rowObjects.ts), `objects()` answers
 * as it does without a token and the loop reads real rows. The row never escapes the loop (the
 * rewrite's analysis), so the one object and the fields it lacks cannot be seen.
 */
import { ROW_LOOP_GLOBAL } from '../../schema/rowLoop.js';
import {
  arrayIterationIntact,
  NativeArray,
  NativeDate,
  SafeWeakMap,
  NewFunction,
  ObjectCreate,
  ObjectDefineProperty,
  ReflectApply,
  SafeMap,
} from '../intrinsics.js';
import { dateFlags, rowCode, rowLoad, type Kept, type RowShape } from './rowCache.js';
import { dateArrayLoop, dateLoopState, fillDates, type DateRows } from './dateLoop.js';
import { holdRows } from './pendingRows.js';
import { doneIterator } from './keyedLoop.js';
import { isPick, tookScalar } from './scalarLoop.js';
import { textLoopState } from './textLoop.js';
import { keyedTop, releaseKeyed } from './keyedTop.js';

/** What `open` returns: the token passed to objects(). */
export interface RowLoopState {
  /** The fields the loop (or the chain's callbacks) read. */
  names: string[];
  /**
   * For a chain of array methods on objects() (data/rowChain.ts): its links in order; `['rows']` for a
   * loop whose row may be kept (each row built when the loop reaches it); null for a loop that only
   * reads fields of its row.
   */
  ops: string[] | null;
  /** A text or date loop's state (`['text']`, `['date']` ops: data/textLoop.ts, data/dateLoop.ts), as the preparation passed it. */
  text?: unknown;
}

/** The token `open` made last; objects() accepts only it, once. */
let pending: RowLoopState | null = null;

/**
 * A row array bound to a name (src/runtime/prepare/rowArrays.ts): the array objects() answered, and
 * what its rows were built from, for the fields its uses read.
 */
export interface BoundRows {
  names: string[];
  vals: ArrayLike<unknown>[];
  idx: ArrayLike<number> | null;
  n: number;
  /**
   * For an array answered empty (`['defer']`: only loops read the name), what puts in it the rows
   * objects() would have built at the call (from the values of the call); null once it has, or for
   * an array built at the call.
   */
  fill: ((out: unknown[]) => void) | null;
  /** For a date column's array (`t.array(dateCol)`, only date loops read it): the times its Dates are made from. */
  dates?: DateRows;
  /**
   * For a list (`tolist()`, rows as arrays): every column, its values (a date column's as the Dates of
   * the call, made when first asked: the list's loops and its rows hold the same ones), and the visible
   * rows, that each row is built from.
   */
  list?: { names: string[]; vals: () => readonly Kept[]; idx: ArrayLike<number> | null };
  /**
   * For an array of rows of a table's columns: answers a keyed or scalar accumulation loop over it
   * from those columns, over the rows its loops read (`idx`, `n`), as rowObjects.ts's keyedRows.
   */
  keyed?: (names: string[], payload: unknown) => boolean;
  /**
   * For an array chains read (`['chains', ...methods]`, prepare/rowArrays.ts): the object that stands
   * for its rows at a cued chain's first link (data/rowChain.ts `chainRows`), over the values of the
   * call, or null where the chain must run on the rows (its first method replaced, a field not kept);
   * `rows` gives the array with its rows in it.
   */
  chain?: (c: RowLoopState, rows: () => unknown[]) => Record<string, unknown> | null;
  /** The array's own methods (chainMethod) until its rows are first handed to code other than the chains' (disown). */
  own?: string[] | null;
}

const bound = new SafeWeakMap<object, BoundRows>();
const weakGet = SafeWeakMap.prototype.get;
const weakSet = SafeWeakMap.prototype.set;
const weakDelete = SafeWeakMap.prototype.delete;

/** Records that `rows` (a fresh array objects() answered a bound declaration with) holds, or will hold, rows of `b`. */
export function bindRows(rows: unknown[], b: BoundRows): void {
  ReflectApply(weakSet, bound, [rows, b]);
}

/** The bound array `rows` with its rows in it (built now if they were deferred), and none of its own methods. */
function filled(rows: unknown[], b: BoundRows): unknown[] {
  disown(rows, b);
  const fill = b.fill;
  if (fill) {
    b.fill = null;
    fill(rows);
  }
  return rows;
}

/**
 * Column values a run reads in place (`open([col], ['shared'])`, src/runtime/prepare/sharedArrays.ts):
 * the arrays the session keeps for its columns, handed to a true local that only reads elements in
 * bounds and the length. Never written: the write-back gives the global a copy (release).
 */
const sharedValues = new SafeWeakMap<object, boolean>();

/** Records that `values` (a column's kept values) may be handed to a run's local (see sharedValues). */
export function shareValues(values: unknown[]): void {
  ReflectApply(weakSet, sharedValues, [values, true]);
}

/** Ends `values`' sharing (a run's own code got it: fast/arrayChain.ts `r`): the write-back keeps it as it is. */
export function unshareValues(values: unknown[]): void {
  ReflectApply(weakDelete, sharedValues, [values]);
}

/** A shared column's values as the global gets them at the write-back: a copy, made at its first read when the name can hold it. */
function releaseShared(values: unknown[], name: unknown): unknown[] {
  const out = new NativeArray<unknown>(0);
  const fill = (into: unknown[]) => {
    const n = values.length;
    for (let i = 0; i < n; i++) into[i] = values[i];
  };
  if (typeof name !== 'string' || !holdRows(out, fill, name)) fill(out);
  return out;
}

/**
 * The write-back of a bound name at the end of its run (src/runtime/prepare/localize.ts): from here
 * on code other than the run's loops may see the array (a later run may change it), so the binding
 * ends. Deferred rows stay pending on the global `name` (see holdRows) when it can hold them, else
 * they are built now (and always without a name). Any other value is returned as it is.
 */
function release(value: unknown, name?: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (ReflectApply(weakGet, sharedValues, [value]) === true) return releaseShared(value as unknown[], name);
  const b = ReflectApply(weakGet, bound, [value]) as BoundRows | undefined;
  // a keyed loop's target whose totals are deferred (data/keyedTop.ts)
  if (!b) return releaseKeyed(value, name);
  ReflectApply(weakDelete, bound, [value]);
  disown(value as unknown[], b);
  if (b.fill && typeof name === 'string' && holdRows(value as unknown[], b.fill, name)) {
    b.fill = null;
    return value;
  }
  return filled(value as unknown[], b);
}

/**
 * `NAME.length` of a bound name (`__sbirtools_rowLoop.len(NAME).length`, prepare/rowArrays.ts): while
 * its rows are deferred, an object whose `length` is their count (what the array will hold); else the
 * value itself.
 */
function lengthOf(rows: unknown): unknown {
  if (rows === null || typeof rows !== 'object') return rows;
  const b = ReflectApply(weakGet, bound, [rows]) as BoundRows | undefined;
  if (!b || b.fill === null) return rows;
  const o = ObjectCreate(null) as { length: number };
  o.length = b.n;
  return o;
}

/** The chain whose cue ran last (`__sbirtools_rowLoop.chain`): its fields and links; taken by the next chainMethod call. */
let cue: RowLoopState | null = null;

/**
 * The cue around the last argument of a chain's first call on a bound name (prepare/rowArrays.ts):
 * answers the argument as it is (the call gets the same values, as many), and notes which chain the
 * call is for. Nothing runs between it and the call.
 */
function cueChain(value: unknown, names: unknown, ops: unknown): unknown {
  cue = { names: strings(names), ops: strings(ops) };
  return value;
}

const ownMethods = new SafeMap<string, Function>();

/**
 * The own method `name` of an array chains read (`['chains', ...]`): the cued chain over the kept
 * values when this array is bound with them and the cue is this method's chain, else the rows and the
 * session's `Array.prototype[name]` (or the run's: the lookup the call as written makes) on them.
 */
function chainMethod(name: string): Function {
  let f = ownMethods.get(name);
  if (f) return f;
  f = function (this: unknown[]): unknown {
    const c = cue;
    cue = null;
    const b = ReflectApply(weakGet, bound, [this]) as BoundRows | undefined;
    const first = c !== null && c.ops!.length > 0 && b?.chain ? c.ops![0] : undefined;
    if (b && b.chain && c !== null && (first === 'pluck' ? 'map' : first) === name) {
      const link = b.chain(c, () => filled(this, b));
      if (link !== null) return ReflectApply(link[name] as Function, link, arguments as unknown as unknown[]);
    }
    // the lookup the call as written makes, on the array with no own methods left
    const rows = b ? filled(this, b) : this;
    return ReflectApply((rows as unknown as Record<string, Function>)[name]!, rows, arguments as unknown as unknown[]);
  };
  ownMethods.set(name, f);
  return f;
}

/** Gives `rows` (bound as `b`) its own methods `names` (chainMethod), until disown. */
export function ownChainMethods(rows: unknown[], b: BoundRows, names: string[]): void {
  for (let i = 0; i < names.length; i++) {
    // a descriptor with no prototype: a field a run put on Object.prototype (`get`, `enumerable`) is not read as its own
    const d = ObjectCreate(null) as PropertyDescriptor;
    d.value = chainMethod(names[i]!);
    d.writable = true;
    d.enumerable = false;
    d.configurable = true;
    ObjectDefineProperty(rows, names[i]!, d);
  }
  b.own = names;
}

/** Takes the own methods off `rows`: from here on code may see the array, which is then a plain array of rows. */
function disown(rows: unknown[], b: BoundRows): void {
  const own = b.own;
  if (!own) return;
  b.own = null;
  for (let i = 0; i < own.length; i++) delete (rows as unknown as Record<string, unknown>)[own[i]!];
}

/**
 * `__sbirtools_rowLoop.own(x)`: before an index loop the columns did not answer runs as written
 * (prepare/keyedLoops.ts `indexGuard`), an array it reads that is a column's kept values read in place
 * becomes a copy of its own (the loop's index, bounded by another array, could pass its length and
 * reach a getter of the run's with the kept values as `this`); anything else is returned as it is.
 */
function own(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || ReflectApply(weakGet, sharedValues, [value]) !== true)
    return value;
  const values = value as unknown[];
  const out = new NativeArray<unknown>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i];
  return out;
}

/**
 * `(NAME = __sbirtools_rowLoop.at(NAME, k), NAME)[k]` (prepare/sharedArrays.ts `keyRead`: a read of a
 * local's element outside a loop bounded by its length): `value` itself unless it is a column's kept
 * values read in place and `k` is not an index of their own elements (a number, an integer from 0
 * below their length), when it becomes a copy of its own (`own`): the read as written then reaches
 * the prototypes (a getter of the run's) with the copy as `this`, never the kept values.
 */
function at(value: unknown, k: unknown): unknown {
  if (value === null || typeof value !== 'object' || ReflectApply(weakGet, sharedValues, [value]) !== true)
    return value;
  if (typeof k === 'number' && k >= 0 && k < (value as unknown[]).length && (k | 0) === k) return value;
  return own(value);
}

/**
 * What `const NAME = t.array(dateCol)` answers when every use of NAME is a date loop (`open([col],
 * ['dates'])`, prepare/dateLoops.ts `dateArrays`): an empty array, recorded with the column's times,
 * that the write-back at the end of the run (release) fills, or leaves pending on the global, with
 * the Dates array() would have answered at the call; null when the column is not a host date column
 * (array() then answers as if called bare).
 */
export function deferredDates(rows: DateRows | null): unknown[] | null {
  if (!rows) return null;
  const list = new NativeArray<unknown>(0);
  bindRows(list, { names: [], vals: [], idx: null, n: rows.n, fill: (out) => fillDates(rows, out), dates: rows });
  return list;
}

/**
 * A date loop over a name, `for (const d of __sbirtools_rowLoop.dates(x, state))`: the column's
 * numbers (data/dateLoop.ts) when `x` is a date array deferredDates made in this run and the loop may
 * run on them; else `x` itself (a deferred array with its Dates put in first), `state.on` stays false
 * and the loop runs as written.
 */
function useDates(list: unknown, state: unknown): unknown {
  if (list === null || typeof list !== 'object') return list;
  const b = ReflectApply(weakGet, bound, [list]) as BoundRows | undefined;
  if (!b) return list;
  return (b.dates && dateArrayLoop(b.dates, state, arrayIterationIntact)) ?? filled(list as unknown[], b);
}

/** The loop over a table's own rows (data/rowObjects.ts `tableLoopRows`), set when the prelude installs it. */
let tableLoop: ((value: object, names: string[]) => Iterator<unknown> | null) | null = null;
/** A keyed accumulation loop over a table itself (rowObjects.ts `tableKeyedLoop`): a done iterator when answered. */
let tableKeyed: ((value: object, names: string[], payload: unknown) => Iterator<unknown> | null) | null = null;

/** Sets how a loop over a table itself reads its rows (rowObjects.ts: it imports this file, not the reverse). */
export function setTableLoop(
  fn: (value: object, names: string[]) => Iterator<unknown> | null,
  keyed: (value: object, names: string[], payload: unknown) => Iterator<unknown> | null,
): void {
  tableLoop = fn;
  tableKeyed = keyed;
}

/**
 * A loop over a name or a call, `for (const r of __sbirtools_rowLoop.rows(x, names))`, whose body only
 * reads fields of its row: one reused row over the kept values of `names` when `x` is a bound row
 * array bindRows recorded, or a table whose rows the session's own iterator would make
 * (rowObjects.ts `tableLoopRows`), and the code as written would run the session's own array
 * iterator; else `x` itself (a deferred bound array with its rows put in first), and the loop runs
 * as written. The loop never sees its rows (the preparation's proof); a bound array, a true local of
 * the run that only field-reading loops and chains read, holds (or, deferred, gets when the run
 * writes it back) the rows built from those values.
 */
function useRows(rows: unknown, names: unknown, kind?: unknown, payload?: unknown): unknown {
  if (rows === null || typeof rows !== 'object') return rows;
  const b = ReflectApply(weakGet, bound, [rows]) as BoundRows | undefined;
  // a keyed accumulation loop (`["keyed"]`, prepare/keyedLoops.ts): answered from a table's columns, or
  // else the loop over its rows as any other
  if (kind !== undefined && strings(kind)[0] === 'keyed') {
    if (!b && tableKeyed) {
      const done = tableKeyed(rows, strings(names), payload);
      if (done) return done;
    }
    // a bound array only loops and field-reading chains read (the preparation's proof) holds the
    // rows of its call's columns, as the reused row below reads them; the loop as written would run
    // the session's array iterator
    if (b?.keyed && arrayIterationIntact() && b.keyed(strings(names), payload)) return doneIterator();
    // a pick keeps its row: the loop runs as written over the rows themselves
    if (NativeArray.isArray(payload) && isPick(payload[0])) return b ? filled(rows as unknown[], b) : rows;
    kind = undefined;
  }
  // a destructuring loop over a bound list (`["array"]`): a fresh row each step, as the list would hold
  if (kind !== undefined) {
    if (!b) return rows;
    const l = b.list;
    return l && arrayIterationIntact()
      ? loopRows('array', l.names, l.vals(), l.idx, b.n)
      : filled(rows as unknown[], b);
  }
  if (!b) return tableLoop ? (tableLoop(rows, strings(names)) ?? rows) : rows;
  const read = strings(names);
  const vals: ArrayLike<unknown>[] = [];
  for (let i = 0; i < read.length; i++) {
    const k = b.names.indexOf(read[i]!);
    if (k < 0) return filled(rows as unknown[], b);
    vals[i] = b.vals[k]!;
  }
  // a loop that runs as written iterates the rows themselves
  return arrayIterationIntact() ? loopRows('reused', read, vals, b.idx, b.n) : filled(rows as unknown[], b);
}

/**
 * Defines `__sbirtools_rowLoop` (non-writable and non-enumerable: a run cannot replace it; an object,
 * not a function, so error hints never suggest it).
 */
export function installRowLoop(
  keyed: (spec: unknown, target: unknown, arrays: unknown, iter?: unknown) => boolean,
  gets: (spec: unknown, target: unknown, table: unknown, bound: unknown, names: unknown) => boolean,
): void {
  const entry = {
    keyed,
    gets,
    open(names: unknown, ops?: unknown, text?: unknown): RowLoopState {
      const s: RowLoopState = { names: strings(names), ops: ops === undefined ? null : strings(ops), text };
      pending = s;
      return s;
    },
    rows: useRows,
    chain: cueChain,
    len: lengthOf,
    dates: useDates,
    release,
    own,
    at,
    took: tookScalar,
    top: keyedTop,
    text: textLoopState,
    date: dateLoopState,
  };
  ObjectDefineProperty(globalThis, ROW_LOOP_GLOBAL, {
    value: Object.freeze(entry),
    writable: false,
    enumerable: false,
    configurable: false,
  });
}

/** The strings of `list` when it is an array (no Array.prototype method: a run may have replaced them). */
function strings(list: unknown): string[] {
  const out: string[] = [];
  if (NativeArray.isArray(list))
    for (let i = 0; i < list.length; i++) if (typeof list[i] === 'string') out[out.length] = list[i] as string;
  return out;
}

/**
 * A loop reading one long text field or value through the host's scans (`open([name, ...other fields],
 * ['text'], state)`, prepare/textLoops.ts).
 */
export const isTextLoopToken = (s: RowLoopState): boolean =>
  s.ops !== null && s.ops.length === 1 && s.ops[0] === 'text' && s.names.length >= 1;

/** A keyed accumulation loop (`open(fields, ['keyed'], [spec, target])`, prepare/keyedLoops.ts; data/keyedLoop.ts). */
export const isKeyedToken = (s: RowLoopState): boolean => s.ops !== null && s.ops.length === 1 && s.ops[0] === 'keyed';

/**
 * A loop reading one date field or value through the column's numbers (`open([name, ...other fields],
 * ['date'], state)`, prepare/dateLoops.ts).
 */
export const isDateLoopToken = (s: RowLoopState): boolean =>
  s.ops !== null && s.ops.length === 1 && s.ops[0] === 'date' && s.names.length >= 1;

/**
 * A column array read in place (`open([col], ['shared'])`, prepare/sharedArrays.ts; `['sharedIter']`
 * when a for-of also iterates it right after the call: the array iterator must then be the session's).
 */
export const isSharedToken = (s: RowLoopState): boolean =>
  s.ops !== null && s.ops.length === 1 && (s.ops[0] === 'shared' || s.ops[0] === 'sharedIter') && s.names.length === 1;

/** A for-of over a column's array (`for (... of X.array(col, open([col], ['values'])))`, prepare/rowLoops.ts). */
export const isValuesToken = (s: RowLoopState): boolean =>
  s.ops !== null && s.ops.length === 1 && s.ops[0] === 'values' && s.names.length === 1;

/** A date column's array only date loops read (`open([col], ['dates'])`, prepare/dateLoops.ts `dateArrays`). */
export const isDateArrayToken = (s: RowLoopState): boolean =>
  s.ops !== null && s.ops.length === 1 && s.ops[0] === 'dates' && s.names.length === 1;

/** Whether `x` is the token the run's preparation just opened (not yet taken): never a value of the run's. */
export const isOpenRowLoop = (x: unknown): boolean => pending !== null && x === pending;

/** The loop state when `options` is the token `open` made last (it is then used up), else null. */
export function takeRowLoop(options: unknown): RowLoopState | null {
  if (pending === null || options !== pending) return null;
  const s = pending;
  pending = null;
  return s;
}

type Start = (
  vals: readonly Kept[],
  idx: ArrayLike<number> | null,
  n: number,
  iteratorKey: symbol,
  D: DateConstructor,
) => Iterator<unknown>;

const ITERATOR = Symbol.iterator;
const MAX_STARTS = 64;
const starts = new Map<string, Start>();

/**
 * How a loop's rows are made: 'reused' assigns the read fields to one row object (its row is only
 * read field by field); 'object' and 'array' build each row as objects() and tolist() would, a fresh
 * one per `next()` (the row may be kept: only the array that would hold them all is not made).
 */
export type LoopRows = 'reused' | RowShape;

/**
 * The iterator of one loop, compiled once per kind and list of fields: `next()` makes visible row k
 * (`idx[k]`, or k) and returns the same result object every time (a for-of reads `done` and `value`
 * from it before the next call; nothing else sees it). Without a date field of a reused row, the
 * iterator is an instance of a class compiled with it (its state in fields): every run's loop calls
 * the same `next`, whose optimized code V8 keeps and inlines into the loop from one run to the next,
 * where a closure made per run is a new call target each run, and code specialized to one run's
 * arrays is thrown away when a collection frees them.
 */
function startFor(kind: LoopRows, names: string[], flags: string): Start {
  const key = `${kind}\u0000${flags}\u0000${names.join('\u0000')}`;
  let start = starts.get(key);
  if (start) return start;
  const reused = kind === 'reused';
  const dated = reused && flags.includes('1');
  start = dated ? datedStart(names, flags) : classStart(kind, names, flags);
  // compiled once per list of fields; a session that reads many differently named fields starts over
  if (starts.size >= MAX_STARTS) starts.clear();
  starts.set(key, start);
  return start;
}

/** The iterator as a class (see startFor): the fields' arrays, the visible rows and the position in its fields. */
function classStart(kind: LoopRows, names: string[], flags: string): Start {
  // the declarations rowLoad makes, as fields: `this.v<k>`, or a date column's `this.t<k>` and `this.m<k>`
  const store = names
    .map((_, k) =>
      flags[k] === '1' ? `this.t${k} = vals[${k}].values; this.m${k} = vals[${k}].valid;` : `this.v${k} = vals[${k}];`,
    )
    .join(' ');
  const load = names
    .map((_, k) => (flags[k] === '1' ? `const t${k} = this.t${k}, m${k} = this.m${k};` : `const v${k} = this.v${k};`))
    .join(' ');
  // the reused row's fields are its own from the start: an assignment never reaches a setter on Object.prototype
  const fields = names.map((name) => `${JSON.stringify(name)}: undefined`).join(', ');
  const make =
    kind === 'reused'
      ? `const row = this.row; ${names.map((name, k) => `row[${JSON.stringify(name)}] = v${k}[r];`).join(' ')}`
      : `res.value = ${rowCode(kind, names, flags)};`;
  const make0 = NewFunction(
    'iteratorKey',
    'D',
    `class RowIterator {
      constructor(vals, idx, n) {
        ${store} this.idx = idx; this.n = n; this.k = 0;
        this.row = ${kind === 'reused' ? `{ ${fields} }` : 'undefined'};
        this.res = { done: false, value: this.row };
      }
      next() {
        const res = this.res, k = this.k;
        if (k < this.n) { const idx = this.idx; const r = idx === null ? k : idx[k]; this.k = k + 1; ${load} ${make} return res; }
        res.done = true; res.value = undefined; return res;
      }
      [iteratorKey]() { return this; }
    }
    return (vals, idx, n) => new RowIterator(vals, idx, n);`,
  ) as (
    iteratorKey: symbol,
    D: DateConstructor,
  ) => (vals: readonly Kept[], idx: ArrayLike<number> | null, n: number) => Iterator<unknown>;
  // the extra arguments a Start is called with are the ones given here
  return make0(ITERATOR, NativeDate) as unknown as Start;
}

/** The iterator of a reused row with a date field (a getter making the row's Date when first read), as closures. */
function datedStart(names: string[], flags: string): Start {
  const load = rowLoad(names, flags);
  // A date field of a reused row is a getter: the row's Date is made when the body first reads the
  // field in that row (the same one at every read of the row, as a real row's), so a body that reads
  // it in some rows makes only theirs (the row is only ever read field by field)
  const fields = names
    .map((name, k) =>
      flags[k] === '1'
        ? `get ${JSON.stringify(name)}() { if (c${k} !== cr) { c${k} = cr; d${k} = m${k}[cr] ? new D(t${k}[cr]) : null; } return d${k}; }`
        : `${JSON.stringify(name)}: undefined`,
    )
    .join(', ');
  const state = `let cr = -1; ${names.map((_, k) => (flags[k] === '1' ? `let c${k} = -1, d${k} = null;` : '')).join(' ')}`;
  const make = `cr = r; ${names.map((name, k) => (flags[k] === '1' ? '' : `row[${JSON.stringify(name)}] = v${k}[r];`)).join(' ')}`;
  return NewFunction(
    'vals',
    'idx',
    'n',
    'iteratorKey',
    'D',
    `${load} ${state} const row = { ${fields} }; const res = { done: false, value: row }; let k = 0;
    const it = {
      next() {
        if (k < n) { const r = idx === null ? k : idx[k]; k++; ${make} return res; }
        res.done = true; res.value = undefined; return res;
      },
      [iteratorKey]() { return it; },
    };
    return it;`,
  ) as Start;
}

/**
 * The rows a loop iterates: `vals[k]` are the values of `names[k]` for every row of the table (or a
 * date column's times: each row then gets a Date of its own), `idx` the visible rows (or null for all `n`).
 */
export function loopRows(
  kind: LoopRows,
  names: string[],
  vals: readonly Kept[],
  idx: ArrayLike<number> | null,
  n: number,
): Iterator<unknown> {
  return startFor(kind, names, dateFlags(vals))(vals, idx, n, ITERATOR, NativeDate);
}

// the for-of check lives with the captures it reads; the row paths import it from here
export { arrayIterationIntact };
