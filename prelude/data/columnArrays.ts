/**
 * `t.array(col)` over award_data's columns without Arquero's per-row scan: the column's values
 * are decoded once per session (data/lazyColumn.ts) and every call returns a fresh copy (a
 * `slice`, a memcpy of pointers), so a guest that sorts or writes into the array it got cannot
 * change what a later call or a later run reads. Long text is copied from its cached pages.
 */
import type { ColumnTable } from 'arquero';
import {
  ArrayIsArray,
  NativeArray,
  SafeWeakMap,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetPrototypeOf,
  ReflectApply,
} from '../intrinsics.js';
import { LazyColumn } from './lazyColumn.js';
import {
  arrayIterationIntact,
  deferredDates,
  isDateArrayToken,
  isDateLoopToken,
  isKeyedToken,
  isSharedToken,
  isTextLoopToken,
  isValuesToken,
  shareValues,
  takeRowLoop,
} from './rowLoop.js';
import { dateLoop, dateRowsOf } from './dateLoop.js';
import { doneIterator, keyedLoop } from './keyedLoop.js';
import { isLatest } from './dateExtremeLoop.js';
import { columnSource } from '../fast/source.js';
import { textLoop } from './textLoop.js';

const origins = new SafeWeakMap<object, LazyColumn>();
/** A column's kept values handed to a run's local in place (`shared`, `sharedIter`), by the column. */
const keptOrigins = new SafeWeakMap<object, LazyColumn>();

/**
 * The column an array came from, when it is one `t.array(col)` returned over all rows of an
 * unfiltered, unordered table (fast/arrayChain.ts checks it still holds the column's values).
 */
export function arrayOrigin(a: object): LazyColumn | undefined {
  return origins.get(a);
}

/**
 * The column whose kept values `a` is, when array() handed them to a run's local in place (a
 * `shared` or `sharedIter` token: prepare/sharedArrays.ts proved the run only reads them in bounds).
 */
export function keptValuesOrigin(a: object): LazyColumn | undefined {
  return keptOrigins.get(a);
}

/**
 * Notes `a`, a fresh array of every value of `col` over all rows of an unfiltered, unordered table in
 * row order (a `map(r => r.F)` on objects(): data/rowChain.ts), as `t.array(col)` would have given it.
 */
export function noteArrayOrigin(a: object, col: LazyColumn): void {
  origins.set(a, col);
}

const hostTableSet = new SafeWeakMap<object, boolean>();

/** Notes a table data/hostTables.ts made (award_data, a user's host table): known by identity, so no Proxy. */
export function noteHostTable(t: object): void {
  hostTableSet.set(t, true);
}

/** The table methods a chain on `t.array(col)` (or a loop of `t.get(col, i)`) reads a column with, as Arquero and this file define them. */
export interface TableMethods {
  array: (this: ColumnTable, name: string) => unknown;
  column: (this: ColumnTable, name: string) => unknown;
  get: (this: ColumnTable, name: string, row?: number) => unknown;
  isFiltered: (this: ColumnTable) => boolean;
  isOrdered: (this: ColumnTable) => boolean;
  numRows: (this: ColumnTable) => number;
  totalRows: (this: ColumnTable) => number;
}

const CHECKED = ['array', 'column', 'get', 'isFiltered', 'isOrdered', 'numRows', 'totalRows'] as const;
let installed: { proto: object; parent: object | null; methods: TableMethods } | null = null;

/**
 * The methods of `t` when `t` is a host table and each of `array`, `column`, `get`, `isFiltered`,
 * `isOrdered`, `numRows` and `totalRows` is still the one installed (not an own property, not replaced on its
 * prototype): calling them runs no guest code. Reads descriptors of objects known by identity only.
 */
export function hostTableMethods(t: unknown): TableMethods | undefined {
  if (installed === null || t === null || typeof t !== 'object' || !hostTableSet.get(t)) return undefined;
  const { proto, parent, methods } = installed;
  if (ObjectGetPrototypeOf(t) !== proto || ObjectGetPrototypeOf(proto) !== parent) return undefined;
  // an index loop: a for-of would call the session's array iterator, which a run may have replaced
  for (let k = 0; k < CHECKED.length; k++) {
    const name = CHECKED[k]!;
    if (ObjectGetOwnPropertyDescriptor(t, name) !== undefined) return undefined;
    // found on the table's prototype or the one above it (Arquero's Table), never further up
    const d = ObjectGetOwnPropertyDescriptor(proto, name) ?? (parent && ObjectGetOwnPropertyDescriptor(parent, name));
    if (!d || !('value' in d) || d.value !== methods[name]) return undefined;
  }
  return methods;
}

/**
 * `for (const a of t.array(name))` answered as a keyed accumulation (data/keyedLoop.ts, `payload`
 * `[spec, target]`): an iterator that is done at once when it was, else null (array() answers). Only
 * over every row of an unfiltered, unordered table whose array iterator is the session's (the loop
 * as written would run it).
 */
function keyedColumn(t: ColumnTable, name: string, payload: unknown): Iterator<unknown> | null {
  // the table methods asked are the installed ones: asking them runs no code of the run's
  if (!ArrayIsArray(payload) || payload.length !== 2 || !hostTableMethods(t)) return null;
  const col = t.column(name) as unknown;
  // a date column's only keyed loop is a latest loop's (data/dateExtremeLoop.ts: its numbers, a fresh Date)
  if (!(col instanceof LazyColumn) || t.isFiltered() || t.isOrdered()) return null;
  if (col.type === 'date' && !isLatest(payload[0])) return null;
  if (!arrayIterationIntact()) return null;
  return keyedLoop(payload[0], payload[1], [columnSource(col)], null, col.length) ? doneIterator() : null;
}

type ArrayMethod = (this: ColumnTable, name: string, constructor?: unknown) => unknown;

/** Replaces ColumnTable.prototype.array (idempotent); other columns and typed-array constructors keep Arquero's path. */
export function installColumnArrays(proto: Record<string, unknown>): void {
  const orig = proto.array as ArrayMethod & { __sbirtools?: boolean };
  if (typeof orig !== 'function' || orig.__sbirtools) return;
  const array = function array(this: ColumnTable, name: string, constructor: unknown = NativeArray): unknown {
    // a text or date loop's token (prepare/textLoops.ts, dateLoops.ts): its rows, or the array as if called bare
    const loop = takeRowLoop(constructor);
    if (loop) {
      const bare = () => ReflectApply(array, this, [name]) as unknown[];
      // a keyed loop's token names the loop's value, not the column
      // declined, the loop runs as written over what the values token gives (prepare/rowLoops.ts `loopEdits`)
      if (isKeyedToken(loop))
        return (
          keyedColumn(this, name, loop.text) ?? (hostTableMethods(this) ? columnArray(this, name, 'loop') : bare())
        );
      if (loop.names.length !== 1 || loop.names[0] !== name) return bare();
      // a local that only reads elements in bounds: the column's kept values themselves (the calls as bare)
      // only through the installed array(): a table's own or replaced `array` that hands the token on
      // would get the kept values themselves (hostTableMethods: descriptors read, no code of the run's)
      if (isSharedToken(loop) || isValuesToken(loop)) {
        if (!hostTableMethods(this)) return bare();
        if (isValuesToken(loop)) return columnArray(this, name, 'loop');
        return columnArray(this, name, loop.ops![0] === 'sharedIter' ? 'sharedIter' : 'shared');
      }
      // a date array only date loops read: its Dates are made when the name is first read after the run
      if (isDateArrayToken(loop)) return deferredDates(dateRowsOf(this, name)) ?? bare();
      if (isTextLoopToken(loop)) return textLoop(this, name, null, bare, loop.text, arrayIterationIntact, null);
      return isDateLoopToken(loop) ? dateLoop(this, name, null, bare, loop.text, arrayIterationIntact, null) : bare();
    }
    if (constructor === NativeArray) return columnArray(this, name, 'copy');
    // another constructor: Arquero's own, after the column is asked for (as for plain values)
    this.column(name);
    return ReflectApply(orig, this, [name, constructor]);
  } as ArrayMethod & { __sbirtools?: boolean };
  /**
   * `array(name)`: a copy of the column's values; for `shared` (a run's local that only reads
   * elements in bounds, prepare/sharedArrays.ts) the values the session keeps when the column has
   * them as plain values (no Dates, no long text), no copy; `sharedIter` the same when the array
   * iterator is the session's (a for-of over the local takes it right after this call); for `loop`
   * (the iterable of a for-of, prepare/rowLoops.ts `['values']`) those kept values when the array
   * iterator and its `next` are the session's (the loop as written would run them over the copy):
   * the for-of calls them at once, reads the same values, and nothing else sees the array. The
   * table's methods are called as without.
   */
  const columnArray = (t: ColumnTable, name: string, mode: 'copy' | 'shared' | 'sharedIter' | 'loop'): unknown => {
    const col = t.column(name) as unknown;
    if (!(col instanceof LazyColumn)) return ReflectApply(orig, t, [name, NativeArray]);
    if (t.isFiltered() || t.isOrdered()) return col.pick(t.indices());
    const s = mode === 'copy' ? null : col.scanSource();
    if (s !== null && s.kind === 'all') {
      if (mode === 'shared' || (mode === 'sharedIter' && arrayIterationIntact())) {
        shareValues(s.all as unknown[]);
        keptOrigins.set(s.all, col);
        return s.all;
      }
      // the for-of takes the array's iterator right after this call: the session's, over the kept
      // values, reads them and nothing else (no code of the run's sees the array)
      if (mode === 'loop' && arrayIterationIntact()) return s.all;
    }
    const out = col.values();
    origins.set(out, col);
    return out;
  };
  array.__sbirtools = true;
  Object.defineProperty(proto, 'array', { value: array, writable: true, configurable: true });
  const parent = ObjectGetPrototypeOf(proto) as object | null;
  const find = (name: string) => {
    const d = ObjectGetOwnPropertyDescriptor(proto, name) ?? (parent && ObjectGetOwnPropertyDescriptor(parent, name));
    return d && 'value' in d ? d.value : undefined;
  };
  installed = {
    proto,
    parent,
    methods: {
      array,
      column: find('column'),
      get: find('get'),
      isFiltered: find('isFiltered'),
      isOrdered: find('isOrdered'),
      numRows: find('numRows'),
      totalRows: find('totalRows'),
    } as TableMethods,
  };
}
