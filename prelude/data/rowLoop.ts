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
import { NativeArray, ObjectDefineProperty } from '../intrinsics.js';

/** What `open` returns: the token passed to objects(). */
export interface RowLoopState {
  /** The fields the loop (or the chain's callbacks) read. */
  names: string[];
  /** For a chain of array methods on objects() (data/rowChain.ts): its links in order, else null. */
  ops: string[] | null;
}

/** The token `open` made last; objects() accepts only it, once. */
let pending: RowLoopState | null = null;

/**
 * Defines `__sbirtools_rowLoop` (non-writable and non-enumerable: a run cannot replace it; an object,
 * not a function, so error hints never suggest it).
 */
export function installRowLoop(): void {
  const entry = {
    open(names: unknown, ops?: unknown): RowLoopState {
      const s: RowLoopState = { names: strings(names), ops: ops === undefined ? null : strings(ops) };
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

/** The strings of `list` when it is an array (no Array.prototype method: a run may have replaced them). */
function strings(list: unknown): string[] {
  const out: string[] = [];
  if (NativeArray.isArray(list))
    for (let i = 0; i < list.length; i++) if (typeof list[i] === 'string') out[out.length] = list[i] as string;
  return out;
}

/** The loop state when `options` is the token `open` made last (it is then used up), else null. */
export function takeRowLoop(options: unknown): RowLoopState | null {
  if (pending === null || options !== pending) return null;
  const s = pending;
  pending = null;
  return s;
}

type Start = (
  vals: ArrayLike<unknown>[],
  idx: ArrayLike<number> | null,
  n: number,
  iteratorKey: symbol,
) => Iterator<unknown>;

const NewFunction = globalThis.Function;
const ITERATOR = Symbol.iterator;
const MAX_STARTS = 64;
const starts = new Map<string, Start>();

/**
 * The iterator of one loop, compiled once per list of fields: `next()` assigns the fields of visible
 * row k (`idx[k]`, or k) to the one row object and returns the same result object every time (a
 * for-of reads `done` and `value` from it before the next call; nothing else sees it).
 */
function startFor(names: string[]): Start {
  const key = names.join('\u0000');
  let start = starts.get(key);
  if (start) return start;
  const load = names.map((_, k) => `const v${k} = vals[${k}];`).join(' ');
  const sets = names.map((name, k) => `row[${JSON.stringify(name)}] = v${k}[r];`).join(' ');
  // the row's fields are its own from the start: an assignment never reaches a setter on Object.prototype
  const fields = names.map((name) => `${JSON.stringify(name)}: undefined`).join(', ');
  start = NewFunction(
    'vals',
    'idx',
    'n',
    'iteratorKey',
    `${load} const row = { ${fields} }; const res = { done: false, value: row }; let k = 0;
    const it = {
      next() {
        if (k < n) { const r = idx === null ? k : idx[k]; k++; ${sets} return res; }
        res.done = true; res.value = undefined; return res;
      },
      [iteratorKey]() { return it; },
    };
    return it;`,
  ) as Start;
  // compiled once per list of fields; a session that reads many differently named fields starts over
  if (starts.size >= MAX_STARTS) starts.clear();
  starts.set(key, start);
  return start;
}

/**
 * The rows a loop iterates: `vals[k]` are the values of `names[k]` for every row of the table, `idx`
 * the visible rows (or null for all `n`).
 */
export function flyweightRows(
  names: string[],
  vals: ArrayLike<unknown>[],
  idx: ArrayLike<number> | null,
  n: number,
): Iterator<unknown> {
  return startFor(names)(vals, idx, n, ITERATOR);
}
