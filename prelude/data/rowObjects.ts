/**
 * `t.objects()`, `t.tolist()` (a plain table's rows as arrays) and `for (const r of t)` through the
 * session's row cache (data/rowCache.ts): the rows of a selection are built once and handed out
 * again, checked, in a fresh array. Calls this path does not cover keep Arquero's own code:
 * `objects({ grouped })` on a grouped table, column selections other than names, a column named
 * `__proto__`, columns that are neither award_data's nor arrays, a non-integer limit or offset.
 */
import type { ColumnTable } from 'arquero';
import {
  ArrayBufferIsView,
  ArrayIsArray,
  MathMin,
  NativeArray,
  ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetPrototypeOf,
  SafeSet,
} from '../intrinsics.js';
import { LazyColumn } from './lazyColumn.js';
import { noteArrayOrigin } from './columnArrays.js';
import {
  CallDates,
  DateTimes,
  cachedRows,
  cachedValues,
  ownValues,
  rowsAt,
  rowsInto,
  type Kept,
  type RowColumn,
  type RowShape,
} from './rowCache.js';
import { chainIntact, chainRows, pickRows, type PluckOrigin } from './rowChain.js';
import { columnChain } from '../fast/arrayChain.js';
import {
  arrayIterationIntact,
  bindRows,
  isDateLoopToken,
  isKeyedToken,
  isTextLoopToken,
  loopRows,
  ownChainMethods,
  setTableLoop,
  takeRowLoop,
  type BoundRows,
  type RowLoopState,
} from './rowLoop.js';
import { textLoop } from './textLoop.js';
import { dateLoop } from './dateLoop.js';
import { doneIterator, keyedLoop } from './keyedLoop.js';
import { isPick, settlePick } from './scalarLoop.js';
import { isLatest } from './dateExtremeLoop.js';
import { columnSource, type Source } from '../fast/source.js';
import { seriesMark } from '../series/seriesTables.js';
import { rowCallbackBody, textClasses, textTruth } from '../fast/textClasses.js';
import { readable, rowAddends, rowTruth } from '../fast/rowTruth.js';

type AnyFn = (this: ColumnTable, ...args: unknown[]) => unknown;

const isCount = (x: unknown) => x === undefined || (typeof x === 'number' && x >= 0 && (x === Infinity || x % 1 === 0));

/** The selected columns as RowColumns, or null when one of them is not one this path reads. */
function rowColumns(t: ColumnTable, names: readonly string[]): RowColumn[] | null {
  const out: RowColumn[] = [];
  for (const name of names) {
    if (name === '__proto__') return null;
    const column = t.column(name) as unknown;
    if (column instanceof LazyColumn) {
      if (column.length !== t.totalRows()) return null;
      const col = column;
      out.push({
        name,
        column,
        text: col.textPaged,
        values: () => {
          // a date column: its times (each call makes its own Dates from them: rowCache.ts CallDates)
          if (col.type === 'date') {
            const raw = col.transfer();
            if (raw.kind === 'float64' && raw.values.length === col.length) return new DateTimes(raw.values, raw.valid);
          }
          const s = col.scanSource();
          return s && s.kind === 'all' ? s.all : col.values();
        },
      });
    } else if (
      (ArrayIsArray(column) || ArrayBufferIsView(column)) &&
      (column as ArrayLike<unknown>).length === t.totalRows()
    ) {
      out.push({ name, column, text: false, values: () => column as ArrayLike<unknown> });
    } else return null;
  }
  return out.length ? out : null;
}

/** The names `options.columns` selects, or null for a selection this path leaves to Arquero. */
function namesOf(t: ColumnTable, columns: unknown): string[] | null {
  if (columns === undefined) return t.columnNames();
  const list = typeof columns === 'string' ? [columns] : ArrayIsArray(columns) ? columns : null;
  if (!list || !list.every((c) => typeof c === 'string' && t.column(c) !== undefined)) return null;
  return new SafeSet(list).size === list.length ? (list as string[]) : null;
}

/**
 * The visible rows [offset, offset + limit) through the cache, or null to use Arquero's path; a date
 * column's Dates are the call's (`dates`).
 */
function rows(
  t: ColumnTable,
  shape: RowShape,
  options: Record<string, unknown>,
  dates: CallDates | null = null,
): unknown[] | null {
  const { limit, offset } = options;
  if (!isCount(limit) || !isCount(offset)) return null;
  const names = namesOf(t, options.columns);
  const cols = names && rowColumns(t, names);
  if (!cols) return null;
  const visible = t.numRows();
  const off = MathMin((offset as number | undefined) ?? 0, visible);
  const n = MathMin(visible - off, (limit as number | undefined) ?? Infinity);
  const idx = t.isFiltered() || t.isOrdered() ? (t.indices() as Uint32Array) : null;
  return cachedRows(shape, cols, t.totalRows(), idx, off, n, dates);
}

/** The values as they are now, in a fresh array (index reads only: no method a guest could replace). */
function copyOf(v: ArrayLike<unknown>): unknown[] {
  const out = new NativeArray<unknown>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i];
  return out;
}

/**
 * What one call reads of the kept values of `cols`: a host column's values (a date column's times:
 * the call makes its Dates, rowCache.ts CallDates), an array column's as they are now (a guest may
 * hold it and write to it while the call's loop runs: the rows objects() builds hold the values of
 * the call).
 */
function callKept(cols: RowColumn[], kept: Kept[]): Kept[] {
  const out = new NativeArray<Kept>(cols.length);
  for (let k = 0; k < cols.length; k++)
    out[k] = cols[k]!.column instanceof LazyColumn ? kept[k]! : copyOf(kept[k] as ArrayLike<unknown>);
  return out;
}

/** What a row loop or chain reads: the values of its fields, the visible rows (indices or null) and their count. */
interface LoopValues<V = ArrayLike<unknown>> {
  vals: V[];
  idx: ArrayLike<number> | null;
  n: number;
}

/**
 * The values a row loop (data/rowLoop.ts) or chain (data/rowChain.ts) reads: when every field it reads
 * is a column this path reads and the rows are at least an eighth of the table (as cachedRows builds
 * them), else null (the code reads real rows). Only the fields read are fetched: the others cannot
 * be seen.
 */
function loopValues(t: ColumnTable, s: RowLoopState, dates: CallDates): LoopValues | null {
  const v = loopKept(t, s);
  if (!v) return null;
  const vals = new NativeArray<ArrayLike<unknown>>(v.vals.length);
  for (let k = 0; k < vals.length; k++) vals[k] = ownValues(v.vals[k]!, dates, v.idx, t.totalRows());
  return { vals, idx: v.idx, n: v.n };
}

/**
 * The values of loopValues with a date column's as its times: for a loop no other view of the call
 * reads (loopRows makes each row's Date as it reaches the row).
 */
function loopKept(t: ColumnTable, s: RowLoopState): LoopValues<Kept> | null {
  const read = new SafeSet(s.names);
  // the fields in the table's column order: the entry objects() rows of the same columns use
  const names = t.columnNames().filter((name) => read.has(name));
  if (names.length !== read.size) return null;
  const cols = names.length ? rowColumns(t, names) : [];
  if (!cols) return null;
  const n = t.numRows();
  const kept = names.length ? cachedValues(cols, t.totalRows(), n) : [];
  if (!kept) return null;
  const idx = t.isFiltered() || t.isOrdered() ? (t.indices() as Uint32Array) : null;
  const own = callKept(cols, kept);
  const vals = s.names.map((name) => own[names.indexOf(name)]!);
  return { vals, idx, n };
}

/**
 * A keyed accumulation loop over `t`'s rows (data/keyedLoop.ts; `payload` `[spec, target]`): true when
 * it was answered from the columns of its fields, each one of `t`'s host columns over all its rows.
 */
function keyedRows(
  t: ColumnTable,
  names: string[],
  payload: unknown,
  at: { idx: ArrayLike<number> | null; n: number } | null = null,
): boolean {
  if (!ArrayIsArray(payload) || payload.length !== 2) return false;
  const srcs: (Source | undefined)[] = [];
  for (let i = 0; i < names.length; i++) {
    const col = names[i] === '__proto__' ? undefined : (t.column(names[i]!) as unknown);
    if (!(col instanceof LazyColumn) || col.length !== t.totalRows()) return false;
    srcs[i] = columnSource(col);
  }
  // a pick keeps a row of its own (a latest loop a Date): over a bound array the loop would keep one of
  // the array's rows (one of their Dates)
  if (at !== null)
    return !isPick(payload[0]) && !isLatest(payload[0]) && keyedLoop(payload[0], payload[1], srcs, at.idx, at.n);
  const idx = t.isFiltered() || t.isOrdered() ? (t.indices() as Uint32Array) : null;
  if (!keyedLoop(payload[0], payload[1], srcs, idx, t.numRows())) return false;
  return !isPick(payload[0]) || settlePick((raw) => rowAt(t, raw));
}

/**
 * The row objects() builds for `t`'s raw row `raw` (every column), or undefined where rows() would not
 * build it. From the session's kept values of these columns when it has them; else from the row's
 * own values (`at`, as those values would hold them): one row kept by a loop is no reason to box
 * every value of every column (a text column's would be decoded whole).
 */
function rowAt(t: ColumnTable, raw: number): unknown {
  const names = t.columnNames();
  const cols = rowColumns(t, names);
  if (!cols) return undefined;
  const one = new Uint32Array(1);
  // n 0: the kept entry when there is one, never one built now
  const kept = cachedValues(cols, t.totalRows(), 0, 'object');
  if (kept) {
    one[0] = raw;
    return loopRows('object', names, callKept(cols, kept), one, 1).next().value;
  }
  const vals = new NativeArray<Kept>(cols.length);
  for (let k = 0; k < cols.length; k++) {
    const column = cols[k]!.column;
    const v = new NativeArray<unknown>(1);
    // a date column's value is a fresh Date (at), as a row made from its times has
    v[0] = column instanceof LazyColumn ? column.at(raw) : (column as ArrayLike<unknown>)[raw];
    vals[k] = v;
  }
  return loopRows('object', names, vals, one, 1).next().value;
}

/** The columns of `t` at places `#k` (a list's rows hold them in that order), or null when one is past the last. */
function placeNames(t: ColumnTable, places: string[]): string[] | null {
  const names = t.columnNames();
  const out: string[] = [];
  for (let i = 0; i < places.length; i++) {
    // digits read one by one: no String.prototype method (a run may have replaced them)
    const p = places[i]!;
    if (p.length < 2 || p.length > 6 || p[0] !== '#') return null;
    let k = 0;
    for (let j = 1; j < p.length; j++) {
      const d = p[j]!;
      if (d < '0' || d > '9') return null;
      k = k * 10 + +d;
    }
    if (k >= names.length) return null;
    out[i] = names[k]!;
  }
  return out;
}

/** A loop that may keep its rows (`open([], ['rows'])`): each row is built when the loop reaches it. */
const isKeptRowLoop = (s: RowLoopState) => s.ops !== null && s.ops.length === 1 && s.ops[0] === 'rows';

/**
 * A loop's rows, each built when the loop reaches it, as objects() or tolist() would build them (every
 * selected column), or null where rows() would answer null (objects() or tolist() then answers).
 */
function keptRows(t: ColumnTable, shape: RowShape): Iterator<unknown> | null {
  const names = t.columnNames();
  const cols = rowColumns(t, names);
  if (!cols) return null;
  const n = t.numRows();
  const kept = cachedValues(cols, t.totalRows(), n, shape);
  if (!kept) return null;
  const idx = t.isFiltered() || t.isOrdered() ? (t.indices() as Uint32Array) : null;
  return loopRows(shape, names, callKept(cols, kept), idx, n);
}

/**
 * How a chain whose last link is a filter makes the rows that passed (visible positions): built from
 * every selected column's values, read now (an array column a callback may write to holds the values of
 * the call, as the rows objects() builds would), by the literal objects() uses; or, for a table whose
 * columns this path does not read, picked from the rows objects() builds.
 */
function filteredRows(
  t: ColumnTable,
  ops: string[],
  bare: () => unknown[],
  dates: CallDates,
): (pos: ArrayLike<number>, m: number) => unknown[] {
  const pick = (pos: ArrayLike<number>, m: number) => pickRows(bare(), pos, m);
  if (ops[ops.length - 1] !== 'filter') return pick;
  const names = t.columnNames();
  const cols = rowColumns(t, names);
  const kept = cols && cachedValues(cols, t.totalRows(), t.numRows());
  if (!cols || !kept) return pick;
  const idx = t.isFiltered() || t.isOrdered() ? (t.indices() as Uint32Array) : null;
  // the array columns as they are now; a date column's Dates those the callbacks saw (the call's)
  const vals = callKept(cols, kept);
  return (pos, m) => rowsAt(names, dates.settled(vals), idx, pos, m);
}

/**
 * For a chain that is one `map(r => r.F)` (`['pluck']`) over an unfiltered, unordered table whose F is
 * a host column over all its rows: what notes the array it answers as F's (columnArrays.ts
 * noteArrayOrigin), so a chain of array methods on it runs as on `t.array(F)`'s; else null.
 */
function pluckOrigin(t: ColumnTable, s: RowLoopState): PluckOrigin | null {
  if (s.ops === null || s.ops.length !== 1 || s.ops[0] !== 'pluck' || t.isFiltered() || t.isOrdered()) return null;
  const col = t.column(s.names[s.names.length - 1]!) as unknown;
  if (!(col instanceof LazyColumn) || col.length !== t.totalRows()) return null;
  const origin: PluckOrigin = (out) => {
    if (out.length === col.length) noteArrayOrigin(out, col);
  };
  // `open(names, ['pluck'], 1)`: the pluck is the argument of a chain's `a(...)` (prepare/arrayChains.ts)
  if (s.text === 1) origin.chain = (make) => columnChain(col, make);
  return origin;
}

/**
 * For a chain of filters ending in `length`, `some` or `every` (data/rowChain.ts) that reads one long
 * text field of an unfiltered, unordered table whose pages the host can scan: the truth value per row
 * of a callback that only tests the field against null and literals (fast/textClasses.ts), answered
 * from the host's scans; else null (the chain reads the field's values).
 */
function textChain(t: ColumnTable, s: RowLoopState): ((cb: unknown) => Uint8Array | undefined) | null {
  const ops = s.ops;
  if (ops === null || s.names.length !== 1) return null;
  const last = ops[ops.length - 1];
  if (last !== 'length' && last !== 'some' && last !== 'every') return null;
  if (t.isFiltered() || t.isOrdered()) return null;
  const name = s.names[0]!;
  const col = t.column(name) as unknown;
  if (!(col instanceof LazyColumn) || col.kind !== 'utf8') return null;
  const n = t.numRows();
  const pages = col.hostScanPages(n);
  if (pages === null) return null;
  return (cb) => {
    const body = rowCallbackBody(cb, name);
    const classes = body && textClasses(body);
    return classes ? textTruth(classes, pages, n) : undefined;
  };
}

/**
 * Whether a chain (data/rowChain.ts) has a link whose callback may be answered from the columns
 * (fast/rowTruth.ts): a filter, some, every, findIndex or reduce, over an unfiltered table or one showing at
 * least an eighth of its rows (as loopValues reads them), every field it reads a number, boolean or
 * dictionary column (no date or array column: their values are the call's, so they are read at it).
 */
function typedChain(t: ColumnTable, s: RowLoopState): boolean {
  const ops = s.ops;
  const tested = (op: string) =>
    op === 'filter' || op === 'some' || op === 'every' || op === 'findIndex' || op === 'reduce';
  if (ops === null || !ops.some(tested)) return false;
  if (t.numRows() * 8 < t.totalRows()) return false;
  return s.names.length > 0 && s.names.every((name) => readable(t, name));
}

/**
 * A row array bound to a name (`open([...fields], ['defer'])`, `['chains', ...methods]` when chains
 * read it too: prepare/rowArrays.ts; `['bind']`, the rows built at the call, is no longer made).
 */
const isBind = (s: RowLoopState) =>
  s.ops !== null &&
  ((s.ops.length === 1 && (s.ops[0] === 'bind' || s.ops[0] === 'defer')) ||
    (s.ops.length > 1 && s.ops[0] === 'chains'));

/**
 * What objects() answers a bound declaration with: the rows objects() builds, as a bare call does
 * (the array is real: the name holds it after the run), recorded with the values of the fields its
 * uses read (data/rowLoop.ts `useRows`) when both come through the row cache; null where rows()
 * answers null (objects() then answers as if called bare).
 */
function boundRows(t: ColumnTable, s: RowLoopState): unknown[] | null {
  // the array's rows and its loops' reused row hold the same Dates, as the loops as written read them from the rows
  const dates = new CallDates();
  const how = s.ops![0];
  if (how === 'defer' || how === 'chains') {
    const later = deferredRows(t, s, 'object', dates, how === 'chains' ? s.ops!.slice(1) : null);
    if (later) return later;
  }
  const list = rows(t, 'object', {}, dates);
  if (!list) return null;
  const v = loopValues(t, s, dates);
  if (v)
    bindRows(list, {
      names: s.names,
      vals: v.vals,
      idx: v.idx,
      n: v.n,
      fill: null,
      keyed: (names, payload) => keyedRows(t, names, payload, v),
    });
  return list;
}

/**
 * What objects() answers a bound declaration only loops read with: an empty array, recorded with the
 * values its loops read and what fills it, at the write-back, with the rows rows() would build now
 * (every column's values and the visible rows as they are at the call: an array column or the
 * table's indices a guest changes later do not reach them); null where rows() would not build them
 * from the cache (the rows are then built at the call).
 */
function deferredRows(
  t: ColumnTable,
  s: RowLoopState,
  shape: RowShape = 'object',
  dates: CallDates = new CallDates(),
  methods: string[] | null = null,
): unknown[] | null {
  const names = t.columnNames();
  const cols = rowColumns(t, names);
  if (!cols) return null;
  if (shape === 'object') {
    const later = lazyRows(t, s, cols, names, dates, methods);
    if (later) return later;
  }
  const n = t.numRows();
  const kept = cachedValues(cols, t.totalRows(), n, shape);
  const v = kept && loopValues(t, s, dates);
  if (!kept || !v) return null;
  const vals = callKept(cols, kept);
  const idx = v.idx && (copyOf(v.idx) as ArrayLike<number>);
  const list = new NativeArray<unknown>(0);
  if (shape === 'array') {
    // a list's loops destructure each row, built as they reach it: they and the rows the fill puts in
    // hold the same Dates (the call's, made when first asked)
    let made: ArrayLike<unknown>[] | null = null;
    const own = () => (made ??= dates.all(vals, idx, t.totalRows()));
    bindRows(list, {
      names: s.names,
      vals: v.vals,
      idx: v.idx,
      n,
      fill: (out) => rowsInto(shape, names, own(), idx, n, out),
      list: { names, vals: own, idx },
    });
    return list;
  }
  // the rows hold the Dates the loops read (the call's); a date column no loop read gets its Dates as the rows are built
  const b: BoundRows = {
    names: s.names,
    vals: v.vals,
    idx: v.idx,
    n,
    fill: (out) => rowsInto(shape, names, dates.settled(vals), idx, n, out),
    keyed: (names, payload) => keyedRows(t, names, payload, v),
  };
  if (methods !== null) {
    b.chain = (c, all) => boundChain(t, c, s.names, v.vals, idx, n, all);
    ownChainMethods(list, b, methods);
  }
  bindRows(list, b);
  return list;
}

/**
 * deferredRows for an object row array of every row of a table whose columns are all the host's
 * (their values never change): the values its rows and loops read are taken when first needed (a
 * loop that runs as written, a chain, the fill at the global's first read), not at the call, so a
 * declaration whose loops the columns answer boxes and keeps nothing (`const rows =
 * t.select('A').objects(); for (const r of rows) s += r.A`, read from the column's typed values);
 * they are the values the call would have taken. Everything that calls a method is settled at the
 * call: what runs later is index loops over arrays made here and the columns' own reads (a run may
 * have replaced Array.prototype's methods by then). Null (deferredRows goes on) for any other table.
 */
function lazyRows(
  t: ColumnTable,
  s: RowLoopState,
  cols: RowColumn[],
  names: string[],
  dates: CallDates,
  methods: string[] | null,
): unknown[] | null {
  if (t.isFiltered() || t.isOrdered()) return null;
  const n = t.numRows();
  const total = t.totalRows();
  // as cachedValues and loopValues decide: every row, every field read a column, every column the host's
  if (n !== total || n * 8 < total) return null;
  for (let k = 0; k < cols.length; k++) if (!(cols[k]!.column instanceof LazyColumn)) return null;
  const fields = s.names;
  const at = new NativeArray<number>(fields.length);
  for (let k = 0; k < fields.length; k++) {
    let j = 0;
    while (j < names.length && names[j] !== fields[k]) j++;
    if (j === names.length) return null;
    at[k] = j;
  }
  let loop: ArrayLike<unknown>[] | null = null;
  // what loopValues gives: each field's values, a date column's as the call's Dates
  const loopVals = () => {
    if (loop !== null) return loop;
    const out = new NativeArray<ArrayLike<unknown>>(fields.length);
    for (let k = 0; k < fields.length; k++) out[k] = ownValues(cols[at[k]!]!.values(), dates, null, total);
    return (loop = out);
  };
  // what cachedValues keeps for every column (a date column's times)
  const allVals = () => {
    const out = new NativeArray<Kept>(cols.length);
    for (let k = 0; k < cols.length; k++) out[k] = cols[k]!.values();
    return out;
  };
  const b: BoundRows = {
    names: fields,
    get vals() {
      return loopVals();
    },
    idx: null,
    n,
    fill: (out) => rowsInto('object', names, dates.settled(allVals()), null, n, out),
    keyed: (read, payload) => keyedRows(t, read, payload, { idx: null, n }),
  };
  const list = new NativeArray<unknown>(0);
  if (methods !== null) {
    b.chain = (c, all) => boundChain(t, c, fields, loopVals(), null, n, all);
    ownChainMethods(list, b, methods);
  }
  bindRows(list, b);
  return list;
}

/**
 * The first link of chain `c` on a bound array (data/rowLoop.ts chainMethod): over the values of the
 * call (`names`, `vals`: what every use of the name reads; `idx` and `n` the visible rows then), as
 * objects()'s own chain of the same links would answer, its callbacks answered from the columns where
 * objects()'s are (the host's columns never change); null when the chain must run on the rows `all`
 * gives (its first method replaced, a field not kept).
 */
function boundChain(
  t: ColumnTable,
  c: RowLoopState,
  names: string[],
  vals: ArrayLike<unknown>[],
  idx: ArrayLike<number> | null,
  n: number,
  all: () => unknown[],
): Record<string, unknown> | null {
  if (c.ops === null || !chainIntact(c.ops)) return null;
  const own = new NativeArray<ArrayLike<unknown>>(c.names.length);
  for (let k = 0; k < c.names.length; k++) {
    const at = names.indexOf(c.names[k]!);
    if (at < 0) return null;
    own[k] = vals[at]!;
  }
  const pick = (pos: ArrayLike<number>, m: number) => pickRows(all(), pos, m);
  const text = idx === null ? textChain(t, c) : null;
  const typed = typedChain(t, c);
  return chainRows(
    c.names,
    own,
    idx,
    n,
    c.ops,
    all,
    pick,
    text,
    idx === null ? pluckOrigin(t, c) : null,
    typed ? (cb, m) => rowTruth(t, cb, m * 4 <= t.totalRows()) : null,
    typed ? (cb, m) => rowAddends(t, cb, m) : null,
  ) as Record<string, unknown>;
}

/**
 * The reused-row iterator of `for (const r of t)` over a table, when `value` is a table whose rows the
 * iterator installed below would make (its prototype the one it is installed on, no own iterator: read
 * as descriptors, so no code of the run runs), every field read is one of its columns and the array
 * iterator is the session's; else null (the loop runs as written).
 */
function tableLoopRows(proto: object, iterator: unknown, value: object, names: string[]): Iterator<unknown> | null {
  if (ObjectGetPrototypeOf(value) !== proto) return null;
  if (ObjectGetOwnPropertyDescriptor(value, Symbol.iterator) !== undefined) return null;
  if (ObjectGetOwnPropertyDescriptor(proto, Symbol.iterator)?.value !== iterator) return null;
  if (!arrayIterationIntact()) return null;
  const v = loopKept(value as ColumnTable, { names, ops: null });
  return v && loopRows('reused', names, v.vals, v.idx, v.n);
}

/**
 * A keyed accumulation loop over a table itself (`for (const r of t)`, data/keyedLoop.ts): a done
 * iterator when answered from `value`'s columns, under the same conditions as tableLoopRows; else null.
 */
function tableKeyedLoop(
  proto: object,
  iterator: unknown,
  value: object,
  names: string[],
  payload: unknown,
): Iterator<unknown> | null {
  if (ObjectGetPrototypeOf(value) !== proto) return null;
  if (ObjectGetOwnPropertyDescriptor(value, Symbol.iterator) !== undefined) return null;
  if (ObjectGetOwnPropertyDescriptor(proto, Symbol.iterator)?.value !== iterator) return null;
  if (!arrayIterationIntact()) return null;
  return keyedRows(value as ColumnTable, names, payload) ? doneIterator() : null;
}

/** Installs objects(), tolist() for plain tables, and the row iterator (after exactRowObjects and tableMethods). */
export function installRowObjects(proto: Record<string, unknown>): void {
  const objects = proto.objects as AnyFn;
  const tolist = proto.tolist as AnyFn | undefined;
  const define = (name: string | symbol, value: unknown) =>
    ObjectDefineProperty(proto, name, { value, writable: true, configurable: true });
  define('objects', function objects_(this: ColumnTable, options?: unknown): unknown {
    // a rewritten row loop's token (prepare/rowLoops.ts): the flyweight, or objects() as if called bare
    const loop = takeRowLoop(options);
    if (loop) {
      const bare = () => objects_.call(this) as unknown[];
      // the Dates of this call: a chain's callbacks and the rows its last filter answers hold the same ones
      const dates = new CallDates();
      // first of all (the prelude's own code below iterates and filters arrays): a loop or chain that
      // would run a method the session replaced gets the rows, and runs it
      if (
        !isBind(loop) &&
        !(loop.ops === null ||
        isKeptRowLoop(loop) ||
        isTextLoopToken(loop) ||
        isDateLoopToken(loop) ||
        isKeyedToken(loop)
          ? arrayIterationIntact()
          : chainIntact(loop.ops))
      )
        return bare();
      if (isKeptRowLoop(loop)) return keptRows(this, 'object') ?? bare();
      if (isTextLoopToken(loop) || isDateLoopToken(loop)) {
        // not a column the loop's path reads: the reused row over the fields' values (the body only reads them)
        const reused = () => {
          const v = loopKept(this, loop);
          return v ? loopRows('reused', loop.names, v.vals, v.idx, v.n) : bare();
        };
        // the other fields the body reads come with the row, from the values the row loop reads
        const names = loop.names.slice(1);
        const others = { names, values: () => loopValues(this, { names, ops: null }, dates) };
        const run = isTextLoopToken(loop) ? textLoop : dateLoop;
        return run(this, loop.names[0]!, loop.names[0]!, reused, loop.text, arrayIterationIntact, others);
      }
      if (isBind(loop)) return boundRows(this, loop) ?? bare();
      // a keyed accumulation answered from the columns runs no iteration; else the reused row
      if (isKeyedToken(loop)) {
        if (keyedRows(this, loop.names, loop.text)) return doneIterator();
        // a pick keeps its row: each built as the loop reaches it, as `["rows"]` loops
        if (ArrayIsArray(loop.text) && isPick(loop.text[0])) return keptRows(this, 'object') ?? bare();
        const v = loopKept(this, loop);
        return v ? loopRows('reused', loop.names, v.vals, v.idx, v.n) : bare();
      }
      const text = textChain(this, loop);
      if (text) {
        // the field's values are read only if a callback tests more than null and literals
        const vals = () => loopValues(this, loop, dates)?.vals ?? null;
        return chainRows(
          loop.names,
          vals,
          null,
          this.numRows(),
          loop.ops!,
          bare,
          filteredRows(this, loop.ops!, bare, dates),
          text,
        );
      }
      if (!loop.ops) {
        const own = loopKept(this, loop);
        return own ? loopRows('reused', loop.names, own.vals, own.idx, own.n) : bare();
      }
      // a pluck straight into a chain's `a(...)` (`open([F], ['pluck'], 1)`) over every row: the chain
      // reads the column's typed values, so the values are read only if it makes its array as written
      const plucked = loop.text === 1 && loop.ops !== null && loop.ops.length === 1 && loop.ops[0] === 'pluck';
      if (typedChain(this, loop) || (plucked && pluckOrigin(this, loop)?.chain)) {
        // a callback may be answered from the columns (fast/rowTruth.ts): the values are read when a link needs them
        const vals = () => loopValues(this, loop, dates)?.vals ?? null;
        const idx = this.isFiltered() || this.isOrdered() ? (this.indices() as Uint32Array) : null;
        return chainRows(
          loop.names,
          vals,
          idx,
          this.numRows(),
          loop.ops,
          bare,
          filteredRows(this, loop.ops, bare, dates),
          null,
          pluckOrigin(this, loop),
          // a pass over every table row: not for a link that reads a quarter of them or fewer,
          // which reads only what the session kept
          (cb, m) => rowTruth(this, cb, m * 4 <= this.totalRows()),
          (cb, m) => rowAddends(this, cb, m),
        );
      }
      const v = loopValues(this, loop, dates);
      if (!v) return bare();
      return chainRows(
        loop.names,
        v.vals,
        v.idx,
        v.n,
        loop.ops,
        bare,
        filteredRows(this, loop.ops, bare, dates),
        null,
        pluckOrigin(this, loop),
      );
    }
    const o = options === undefined ? {} : options;
    if (o === null || typeof o !== 'object' || ((o as { grouped?: unknown }).grouped && this.isGrouped()))
      return objects.apply(this, arguments as unknown as unknown[]);
    return rows(this, 'object', o as Record<string, unknown>) ?? objects.apply(this, arguments as unknown as unknown[]);
  });
  if (tolist) {
    const plainList = function tolist_(this: ColumnTable): unknown {
      // a rewritten loop's token (prepare/rowLoops.ts): its rows one at a time, or tolist() as if
      // called bare (read from `arguments`: tolist.length stays 0)
      const loop = takeRowLoop(arguments[0]);
      const take = loop !== null && isKeptRowLoop(loop) && arrayIterationIntact();
      // a keyed Series table (value_counts(), groupby(k)['x'].sum()) keeps its own tolist
      if (seriesMark(this)) return tolist.call(this);
      // a list bound to a name only destructuring loops read (prepare/rowArrays.ts): filled when first read
      if (loop !== null && loop.ops !== null && loop.ops.length === 1 && loop.ops[0] === 'defer') {
        const later = deferredRows(this, loop, 'array');
        if (later) return later;
      }
      // a scalar accumulation over the rows' places (`#0`, `#1`, prepare/scalarLoops.ts): answered from
      // the columns at those places, or else each row built as the loop reaches it
      if (loop !== null && isKeyedToken(loop) && arrayIterationIntact()) {
        const names = placeNames(this, loop.names);
        const pick = ArrayIsArray(loop.text) && isPick(loop.text[0]);
        if (names && !pick && keyedRows(this, names, loop.text)) return doneIterator();
        const it = keptRows(this, 'array');
        if (it) return it;
      }
      if (take) {
        const it = keptRows(this, 'array');
        if (it) return it;
      }
      return rows(this, 'array', {}) ?? tolist.call(this);
    };
    define('tolist', plainList);
    define('to_list', plainList);
  }
  const iterator = function iterator(this: ColumnTable) {
    const list = rows(this, 'object', {});
    return list ? list[Symbol.iterator]() : (objects.call(this) as unknown[])[Symbol.iterator]();
  };
  define(Symbol.iterator, iterator);
  setTableLoop(
    (value, names) => tableLoopRows(proto, iterator, value, names),
    (value, names, payload) => tableKeyedLoop(proto, iterator, value, names, payload),
  );
}
