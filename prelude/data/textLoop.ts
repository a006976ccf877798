/**
 * Loops over a long text column that never see its strings: the guest side of
 * src/runtime/prepare/textLoops.ts. The preparation rewrites (inserting text only, between markers)
 *   for (const a of t.array('Abstract')) if (a && a.length >= 100) n++;
 * as
 *   {const $sbtRowT0=__sbirtools_rowLoop.text([["u"]]);
 *   for (const a of t.array('Abstract', __sbirtools_rowLoop.open(["Abstract"], ["text"], $sbtRowT0)))
 *     if (a && ($sbtRowT0.on&&a!==null?$sbtRowT0.f0[$sbtRowT0.i]:a.length) >= 100) n++;}
 * (and `for (const r of t.objects())` reading only `r.Abstract` the same way, the token given to
 * objects()), when the body uses the value only where its class (null, empty, another string)
 * decides (its truth, `== null`, `typeof`, `=== ''`) and through the features of fast/textFeatures.ts.
 * Given the token, the prelude's array() and objects() answer, when the column is a long text column
 * of an unfiltered, unordered host table the host can scan, with an iterator of their own: each feature
 * becomes one typed array over the rows, the loop iterates stand-ins of the same class (null, '',
 * one non-empty string) and each feature reads its array at the row (`state.i`). A null row reads
 * the feature as written: the TypeError the code as written throws. Anything else (another table,
 * a filtered one, a replaced array iterator or string method, QuickJS): `on` stays false, the loop
 * gets the iterable as written and every feature runs as written.
 */
import { SafeWeakMap, ObjectDefineProperty, ReflectApply } from '../intrinsics.js';
import {
  EMPTY_ROW,
  NULL_ROW,
  parseFeatures,
  rowFeatures,
  stringMethodsIntact,
  type Feature,
} from '../fast/textFeatures.js';
import type { ColumnTable } from 'arquero';
import { LazyColumn } from './lazyColumn.js';
import type { TextPages } from './textPages.js';

const G = globalThis;
/** Whether the guest's JavaScript is compiled (V8): on QuickJS every loop runs as written. */
const COMPILED = typeof (G.Error as { captureStackTrace?: unknown }).captureStackTrace === 'function';
/** What a row that is neither null nor empty stands as: the body only tests its class. */
const STAND_IN = '\u0000';

/** One rewritten loop's state: `on` while its rows come from the features, `i` the row, `f<k>` feature k's answers. */
interface TextLoopState {
  on: boolean;
  i: number;
  [feature: string]: unknown;
}

/** The features each state was made for (a WeakMap lookup runs no guest code). */
const states = new SafeWeakMap<object, Feature[]>();
const weakGet = SafeWeakMap.prototype.get;
const weakSet = SafeWeakMap.prototype.set;

/**
 * The pages of column `name` of `t` a text loop reads, when `t` is unfiltered and unordered and the
 * column long text whose pages the host can scan; else null.
 */
function scannedPages(t: ColumnTable, name: string): TextPages | null {
  if (t.isFiltered() || t.isOrdered()) return null;
  const col = t.column(name) as unknown;
  if (!(col instanceof LazyColumn) || col.kind !== 'utf8') return null;
  return col.hostScanPages(t.numRows());
}

/** The other fields a row loop reads, and their values per row (data/rowObjects.ts `loopValues`). */
interface OtherFields {
  names: string[];
  values: () => { vals: ArrayLike<unknown>[]; idx: ArrayLike<number> | null; n: number } | null;
}

/** `__sbirtools_rowLoop.text(features)`: a fresh state, `on` false until array() or objects() starts the loop. */
export function textLoopState(spec: unknown): object {
  const s: TextLoopState = { on: false, i: -1 };
  const features = parseFeatures(spec) ?? null;
  // a malformed list (never written by the preparation) keeps the loop as written
  if (features) for (let k = 0; k < features.length; k++) s[`f${k}`] = null;
  ReflectApply(weakSet, states, [s, features ?? []]);
  if (!features) ObjectDefineProperty(s, 'bad', { value: true });
  return s;
}

/** Whether `state` is a text loop's state (`text(features)` made it). */
function isTextLoopState(state: unknown): state is TextLoopState {
  return state !== null && typeof state === 'object' && ReflectApply(weakGet, states, [state]) !== undefined;
}

/**
 * What array() or objects() answers the token of a text loop with: the stand-ins' iterator when `state`
 * is the loop's, the column (`name` of `t`) one scannedPages takes and every feature could be answered;
 * else the method's answer as if called bare (`bare()`), and `on` stays false.
 */
export function textLoop(
  t: ColumnTable,
  name: string,
  field: string | null,
  bare: () => unknown,
  state: unknown,
  arrayIterationIntact: () => boolean,
  others: OtherFields | null,
): unknown {
  if (!COMPILED || !isTextLoopState(state) || (state as { bad?: boolean }).bad) return bare();
  if (!arrayIterationIntact() || !stringMethodsIntact()) return bare();
  const pages = scannedPages(t, name);
  if (!pages) return bare();
  const n = pages.numRows;
  // the other fields a row loop reads: their values per row (the table is unfiltered: no indices)
  const names = others ? others.names : [];
  const more = names.length > 0 ? others!.values() : null;
  if (names.length > 0 && (!more || more.idx !== null || more.n !== n)) return bare();
  const vals = more ? more.vals : [];
  const features = ReflectApply(weakGet, states, [state]) as Feature[];
  const got = rowFeatures(pages, n, features);
  if (!got) return bare();
  for (let k = 0; k < features.length; k++) state[`f${k}`] = got.values[k];
  state.on = true;
  state.i = -1;
  const classes = got.classes;
  const res = { done: false, value: undefined as unknown };
  const row: Record<string, unknown> = {};
  if (field !== null) ObjectDefineProperty(row, field, { value: null, writable: true, enumerable: true });
  // own fields from the start: an assignment never reaches a setter a run put on Object.prototype
  for (let k = 0; k < names.length; k++)
    ObjectDefineProperty(row, names[k]!, { value: undefined, writable: true, enumerable: true });
  const m = names.length;
  const it = {
    next() {
      const i = ++state.i;
      if (i < n) {
        const c = classes[i];
        const v = c === NULL_ROW ? null : c === EMPTY_ROW ? '' : STAND_IN;
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
