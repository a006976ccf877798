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
import { columnSource } from '../fast/source.js';
import { textLoop } from './textLoop.js';

const origins = new SafeWeakMap<object, LazyColumn>();
const ITERATOR: typeof Symbol.iterator = Symbol.iterator;
/** The session's array iterator (a loop over kept values runs it only while it is the one installed: arrayIterationIntact). */
const ArrayValues = NativeArray.prototype[ITERATOR];

/**
 * The column an array came from, when it is one `t.array(col)` returned over all rows of an
 * unfiltered, unordered table (fast/arrayChain.ts checks it still holds the column's values).
 */
export function arrayOrigin(a: object): LazyColumn | undefined {
  return origins.get(a);
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

/** The table methods a chain on `t.array(col)` reads a column with, as Arquero and this file define them. */
export interface TableMethods {
  array: (this: ColumnTable, name: string) => unknown;
  column: (this: ColumnTable, name: string) => unknown;
  isFiltered: (this: ColumnTable) => boolean;
  isOrdered: (this: ColumnTable) => boolean;
  totalRows: (this: ColumnTable) => number;
}

const CHECKED = ['array', 'column', 'isFiltered', 'isOrdered', 'totalRows'] as const;
let installed: { proto: object; parent: object | null; methods: TableMethods } | null = null;

/**
 * The methods of `t` when `t` is a host table and each of `array`, `column`, `isFiltered`,
 * `isOrdered` and `totalRows` is still the one installed (not an own property, not replaced on its
 * prototype): calling them runs no guest code. Reads descriptors of objects known by identity only.
 */
export function hostTableMethods(t: unknown): TableMethods | undefined {
  if (installed === null || t === null || typeof t !== 'object' || !hostTableSet.get(t)) return undefined;
  const { proto, parent, methods } = installed;
  if (ObjectGetPrototypeOf(t) !== proto || ObjectGetPrototypeOf(proto) !== parent) return undefined;
  for (const name of CHECKED) {
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
  if (!(col instanceof LazyColumn) || t.isFiltered() || t.isOrdered() || col.type === 'date') return null;
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
      if (isKeyedToken(loop)) return keyedColumn(this, name, loop.text) ?? bare();
      if (loop.names.length !== 1 || loop.names[0] !== name) return bare();
      // a local that only reads elements in bounds: the column's kept values themselves (the calls as bare)
      if (isSharedToken(loop)) return columnArray(this, name, 'shared');
      if (isValuesToken(loop)) return columnArray(this, name, 'loop');
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
   * them as plain values (no Dates, no long text), no copy; for `loop` (the iterable of a for-of,
   * prepare/rowLoops.ts `['values']`) an iterable whose iterator is the session's array iterator
   * over those kept values, when that iterator is intact (the loop as written would run it over the
   * copy): the loop sees the same values, and nothing else sees the array. The table's methods are
   * called as without.
   */
  const columnArray = (t: ColumnTable, name: string, mode: 'copy' | 'shared' | 'loop'): unknown => {
    const col = t.column(name) as unknown;
    if (!(col instanceof LazyColumn)) return ReflectApply(orig, t, [name, NativeArray]);
    if (t.isFiltered() || t.isOrdered()) return col.pick(t.indices());
    const s = mode === 'copy' ? null : col.scanSource();
    if (s !== null && s.kind === 'all') {
      if (mode === 'shared') {
        shareValues(s.all as unknown[]);
        return s.all;
      }
      if (arrayIterationIntact()) {
        const it = ReflectApply(ArrayValues, s.all, []) as Iterator<unknown>;
        return { [ITERATOR]: () => it };
      }
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
      isFiltered: find('isFiltered'),
      isOrdered: find('isOrdered'),
      totalRows: find('totalRows'),
    } as TableMethods,
  };
}
