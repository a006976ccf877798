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
import { NativeDate, NativeWeakMap, ObjectDefineProperty, ReflectApply } from '../intrinsics.js';
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

const states = new NativeWeakMap<object, DateFeature[]>();
const weakGet = NativeWeakMap.prototype.get;
const weakSet = NativeWeakMap.prototype.set;

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
  if (!COMPILED || state === null || typeof state !== 'object') return bare();
  const features = ReflectApply(weakGet, states, [state]) as DateFeature[] | null | undefined;
  if (!features || !arrayIterationIntact() || !dateMethodsIntact()) return bare();
  const col = t.column(name) as unknown;
  if (!(col instanceof LazyColumn) || col.type !== 'date' || col.kind !== 'float64') return bare();
  const raw = col.transfer();
  if (raw.kind !== 'float64' || raw.values.length !== col.length) return bare();
  const idx = t.isFiltered() || t.isOrdered() ? (t.indices() as ArrayLike<number>) : null;
  const n = idx ? idx.length : t.numRows();
  const names = others ? others.names : [];
  const more = names.length > 0 ? others!.values() : null;
  if (names.length > 0 && (!more || more.n !== n || (more.idx === null) !== (idx === null))) return bare();
  const vals = more ? more.vals : [];
  const s = state as DateLoopState;
  const got = dateFeatures(raw.values, raw.valid, features);
  for (let k = 0; k < features.length; k++) s[`f${k}`] = got[k];
  const { values, valid } = raw;
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
