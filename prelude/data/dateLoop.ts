/**
 * Loops over a date column that build no Date per row: the guest side of
 * src/runtime/prepare/dateLoops.ts. The preparation rewrites (inserting text only, between markers)
 *   for (const d of t.array('D')) if (d && d.getUTCFullYear() === 2021) n++;
 * as
 *   {const $sbtRowD0=__sbirtools_rowLoop.date(["year"]);
 *   for (const d of t.array('D', __sbirtools_rowLoop.open(["D"], ["date"], $sbtRowD0)))
 *     if (d && ($sbtRowD0.on&&d!==null?$sbtRowD0.f0[$sbtRowD0.i]:d.getUTCFullYear()) === 2021) n++;}
 * (and `for (const r of t.objects())` reading the date field as `r.D` or `const d = r.D` the same way,
 * the token given to objects()). Given the token, array() and objects() answer, when the column is a
 * host date column and the session's Date methods and array iterator are its own, with an iterator of
 * their own: each feature is one Float64Array over the column's rows (fast/dateFeatures.ts), the loop
 * iterates a stand-in (null for a null row, one frozen object for any other: the body only tests its
 * class) and each feature reads its array at the row (`state.i`). Where the code uses the row's real
 * Date (`latest = d`), `state.date()` makes it, once per row: the same object at each place of one
 * iteration, as the element of the array would be. A null row runs every expression as written (the
 * TypeError of the code as written). Anything else (another column type, a replaced Date method,
 * QuickJS): `on` stays false, the loop gets the iterable as written and every expression runs as
 * written.
 */
import { NativeDate, SafeWeakMap, ObjectDefineProperty, ReflectApply } from '../intrinsics.js';
import { dateFeatures, dateMethodsIntact, parseDateFeatures, type DateFeature } from '../fast/dateFeatures.js';
import type { ColumnTable } from 'arquero';
import { LazyColumn } from './lazyColumn.js';

const G = globalThis;
/** Whether the guest's JavaScript is compiled (V8): on QuickJS every loop runs as written. */
const COMPILED = typeof (G.Error as { captureStackTrace?: unknown }).captureStackTrace === 'function';
/** What a row that is not null stands as: the body only tests its class (truthy, typeof 'object'). */
const STAND_IN = Object.freeze({});

/**
 * One rewritten loop's state: `on` while its rows come from the features, `i` the column row, `f<k>`
 * feature k's numbers, `k` the row whose Date `date()` made last.
 */
interface DateLoopState {
  on: boolean;
  i: number;
  k: number;
  date: () => unknown;
  [feature: string]: unknown;
}

const states = new SafeWeakMap<object, DateFeature[]>();
const weakGet = SafeWeakMap.prototype.get;
const weakSet = SafeWeakMap.prototype.set;

/** `__sbirtools_rowLoop.date(features)`: a fresh state, `on` false until array() or objects() starts the loop. */
export function dateLoopState(spec: unknown): object {
  const features = parseDateFeatures(spec);
  const s: DateLoopState = { on: false, i: -1, k: -1, date: () => null };
  // a malformed list (never written by the preparation) keeps the loop as written
  if (features) for (let k = 0; k < features.length; k++) s[`f${k}`] = null;
  ReflectApply(weakSet, states, [s, features ?? null]);
  return s;
}

/** The other fields a row loop reads, and their values per row (data/rowObjects.ts `loopValues`). */
interface OtherFields {
  names: string[];
  values: () => { vals: ArrayLike<unknown>[]; idx: ArrayLike<number> | null; n: number } | null;
}

/**
 * The times of a date column's visible rows: `values` and `valid` per column row, `idx` the visible
 * rows (a copy, or null for all `n`).
 */
export interface DateRows {
  values: Float64Array;
  valid: Uint8Array;
  idx: ArrayLike<number> | null;
  n: number;
}

/**
 * The rows of column `name` of `t` when it is a host date column and the guest's JavaScript is
 * compiled; else null. The visible rows are copied: the table's indices a guest changes later never
 * reach them.
 */
export function dateRowsOf(t: ColumnTable, name: string): DateRows | null {
  if (!COMPILED) return null;
  const col = t.column(name) as unknown;
  if (!(col instanceof LazyColumn) || col.type !== 'date' || col.kind !== 'float64') return null;
  const raw = col.transfer();
  if (raw.kind !== 'float64' || raw.values.length !== col.length) return null;
  let idx: Uint32Array | null = null;
  if (t.isFiltered() || t.isOrdered()) {
    const from = t.indices() as ArrayLike<number>;
    idx = new Uint32Array(from.length);
    for (let k = 0; k < from.length; k++) idx[k] = from[k]!;
  }
  return { values: raw.values, valid: raw.valid, idx, n: idx ? idx.length : t.numRows() };
}

/**
 * What `const NAME = t.array(dateCol)` answers when only date loops read NAME (prepare/dateLoops.ts
 * `dateArrays`): the Dates array() would answer, one fresh Date per non-null row, put into `out` (the
 * empty array the name holds until something reads it).
 */
export function fillDates(rows: DateRows, out: unknown[]): void {
  const { values, valid, idx, n } = rows;
  for (let k = 0; k < n; k++) {
    const i = idx === null ? k : idx[k]!;
    out[k] = valid[i] ? new NativeDate(values[i]!) : null;
  }
}

/** The features of a loop's state when the loop may run on the numbers now (the session's Date methods and array iterator), else null. */
function featuresNow(state: unknown, arrayIterationIntact: () => boolean): DateFeature[] | null {
  if (!COMPILED || state === null || typeof state !== 'object') return null;
  const features = ReflectApply(weakGet, states, [state]) as DateFeature[] | null | undefined;
  return features && arrayIterationIntact() && dateMethodsIntact() ? features : null;
}

/**
 * A loop over a bound date array (`for (const d of NAME)`, data/rowLoop.ts `dates`): the stand-ins'
 * iterator over `rows`, or null (the loop iterates the array as written, `on` stays false).
 */
export function dateArrayLoop(rows: DateRows, state: unknown, arrayIterationIntact: () => boolean): unknown {
  const features = featuresNow(state, arrayIterationIntact);
  return features ? dateIterator(rows, features, state as DateLoopState, null, [], []) : null;
}

/**
 * What array() or objects() answers the token of a date loop with: the stand-ins' iterator when
 * `state` is the loop's and column `name` of `t` a host date column; else the method's answer as if
 * called bare (`bare()`), and `on` stays false. `field` is the row's date field (null for array()),
 * `others` the other fields a row loop reads.
 */
export function dateLoop(
  t: ColumnTable,
  name: string,
  field: string | null,
  bare: () => unknown,
  state: unknown,
  arrayIterationIntact: () => boolean,
  others: OtherFields | null,
): unknown {
  const features = featuresNow(state, arrayIterationIntact);
  const rows = features && dateRowsOf(t, name);
  if (!rows) return bare();
  const names = others ? others.names : [];
  const more = names.length > 0 ? others!.values() : null;
  if (names.length > 0 && (!more || more.n !== rows.n || (more.idx === null) !== (rows.idx === null))) return bare();
  return dateIterator(rows, features!, state as DateLoopState, field, names, more ? more.vals : []);
}

/** The stand-ins' iterator of one loop (see dateLoop); `names` are the other fields a row reads, `vals` their values. */
function dateIterator(
  rows: DateRows,
  features: DateFeature[],
  s: DateLoopState,
  field: string | null,
  names: string[],
  vals: ArrayLike<unknown>[],
): Iterator<unknown> {
  const { values, valid, idx, n } = rows;
  const got = dateFeatures(values, valid, features);
  for (let k = 0; k < features.length; k++) s[`f${k}`] = got[k];
  let made: unknown = null;
  s.date = () => {
    // the row's one Date: made the first time the code uses it, as array() or the row would hold it
    if (s.k !== s.i) {
      s.k = s.i;
      made = new NativeDate(values[s.i]!);
    }
    return made;
  };
  s.on = true;
  s.i = -1;
  s.k = -1;
  const res = { done: false, value: undefined as unknown };
  const row: Record<string, unknown> = {};
  if (field !== null) ObjectDefineProperty(row, field, { value: null, writable: true, enumerable: true });
  // own fields from the start: an assignment never reaches a setter a run put on Object.prototype
  for (let k = 0; k < names.length; k++)
    ObjectDefineProperty(row, names[k]!, { value: undefined, writable: true, enumerable: true });
  const m = names.length;
  let j = 0;
  const it = {
    next() {
      if (j < n) {
        const i = idx === null ? j : idx[j]!;
        j++;
        s.i = i;
        const v = valid[i] ? STAND_IN : null;
        if (field === null) res.value = v;
        else {
          row[field] = v;
          for (let k = 0; k < m; k++) row[names[k]!] = vals[k]![i];
          res.value = row;
        }
        return res;
      }
      res.done = true;
      res.value = undefined;
      return res;
    },
    [Symbol.iterator]() {
      return it;
    },
  };
  return it;
}
