/**
 * Row loops without rows: the guest side of src/runtime/prepare/rowLoops.ts. The code preparation
 * rewrites a loop whose row is only ever read field by field,
 *   for (const r of t.objects()) { ... r.Company ... r['Award Amount'] ... }
 * into (inserted text only; every character of the user's code stays, docs/architecture.md)
 *   {let $s; for (const r of t.objects($s = __sbirtools_rowLoop.open(['Company', 'Award Amount']))) {
 *     if ($s.on) { r.Company = $s.v0[i]; r['Award Amount'] = $s.v1[i]; }  ... }}
 * `open` makes a token; the prelude's `objects()` given that token (and only that token, by identity)
 * answers with one reused row object (the flyweight) repeated once per visible row, and fills the
 * token with the value arrays those rows would have been built from (the session's row cache). The
 * loop then assigns the read fields before each iteration's body. When the table is not one this path
 * reads (see rowObjects.ts), `objects()` answers as it does without a token and the loop reads the real
 * rows (`on` stays false). The row never escapes the loop (the rewrite's analysis), so the one object
 * and the fields it lacks cannot be seen.
 */
import { ROW_LOOP_GLOBAL } from '../../schema/rowLoop.js';
import { NativeArray, ObjectDefineProperty } from '../intrinsics.js';

/** What `open` returns: the token passed to objects(), then the loop's state. */
export interface RowLoopState {
  /** True once objects() answered with the flyweight rows. */
  on: boolean;
  /** The fields the loop reads, in the order of `v0`, `v1`, ... */
  names: string[];
  /** The next visible row (an index into `x`, or the row itself when `x` is null). */
  i: number;
  /** The visible rows' indices (a filtered or ordered table), or null for rows 0..n-1. */
  x: ArrayLike<number> | null;
  [values: `v${number}`]: ArrayLike<unknown>;
}

/** The token `open` made last; objects() accepts only it, once. */
let pending: RowLoopState | null = null;

/**
 * Defines `__sbirtools_rowLoop` (non-writable and non-enumerable: a run cannot replace it; an object,
 * not a function, so error hints never suggest it).
 */
export function installRowLoop(): void {
  const entry = {
    open(names: unknown): RowLoopState {
      const list = NativeArray.isArray(names) ? (names as unknown[]).map(String) : [];
      const s: RowLoopState = { on: false, names: list, i: 0, x: null };
      pending = s;
      return s;
    },
  };
  ObjectDefineProperty(globalThis, ROW_LOOP_GLOBAL, {
    value: Object.freeze(entry),
    writable: false,
    enumerable: false,
    configurable: false,
  });
}

/** The loop state when `options` is the token `open` made last (it is then used up), else null. */
export function takeRowLoop(options: unknown): RowLoopState | null {
  if (pending === null || options !== pending) return null;
  const s = pending;
  pending = null;
  return s;
}

/**
 * Switches the loop to the flyweight: `vals[k]` are the values of `s.names[k]` for every row of the
 * table, `idx` the visible rows (or null for all `n`). Returns the rows for-of iterates: one object,
 * `n` times.
 */
export function flyweightRows(
  s: RowLoopState,
  vals: ArrayLike<unknown>[],
  idx: ArrayLike<number> | null,
  n: number,
): unknown[] {
  for (let k = 0; k < vals.length; k++) s[`v${k}`] = vals[k]!;
  s.x = idx;
  s.i = 0;
  s.on = true;
  const row = {};
  const out = new NativeArray<unknown>(n);
  for (let k = 0; k < n; k++) out[k] = row;
  return out;
}
