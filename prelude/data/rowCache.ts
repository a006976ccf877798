/**
 * Row objects (and row arrays) of a column selection, built once per session and handed out again
 * while they are unchanged: `t.select(...).objects()`, `t.tolist()`, `for (const r of t)` in a warm
 * session cost one pass that checks and gathers pointers, not one new object per row.
 *
 * An entry holds, for one list of (name, column) pairs, a row for every row of the columns (the
 * table's filter and order only choose which rows are gathered). Every handout is a fresh array
 * (a guest may sort or splice it), and every row is checked before it is handed out again: its
 * values are still the column's (`===`, NaN equal to NaN), it has exactly as many enumerable
 * properties (or elements) as columns, and it is still extensible (asked only once code outside the
 * prelude made some object non-extensible: sealWatch.ts). A row that fails is replaced
 * by a new one for this and later handouts; the changed object stays with the code that changed
 * it, so a change never reaches a later call. Two handouts of unchanged rows share the objects,
 * so a row changed after both were handed out shows the change in both (documented in prelude.md).
 *
 * The entries of a session stay within a byte budget (an eighth of the memory limit, estimated);
 * a selection past it is built for the one call, as before. Between runs only the most recently
 * used sets, within a 32nd of the limit, stay strongly held; the others are held weakly, so a run
 * that needs the memory gets it back at the next major GC (the text cache keeps up to 60% of the
 * limit in pages, and strongly held rows could push a long-text scan over it); a set a GC took is
 * built again.
 */
import {
  NativeArray,
  NativePromise,
  NativeWeakRef,
  PromisePrototypeThen,
  ReflectApply,
  WeakRefPrototypeDeref,
} from '../intrinsics.js';
import { anySealed } from './sealWatch.js';

/** 'object': `{ name: value, ... }` rows (objects()); 'array': `[value, ...]` rows (tolist()). */
export type RowShape = 'object' | 'array';

type Build = (vals: ArrayLike<unknown>[], rows: unknown[], idx: ArrayLike<number> | null, n: number) => void;
type Gather = (
  vals: ArrayLike<unknown>[],
  rows: unknown[],
  idx: ArrayLike<number> | null,
  off: number,
  n: number,
  out: unknown[],
  sealed: boolean,
) => void;

/** What an entry keeps: the values the rows were built from (one array per column), and the rows. */
interface RowSet {
  vals: ArrayLike<unknown>[];
  rows: unknown[];
}

interface Entry {
  shape: RowShape;
  names: string[];
  columns: unknown[];
  /** Held strongly in the job that built or used it; between runs strongly within strongBytes, else weakly. */
  set: RowSet | null;
  weak: WeakRef<RowSet> | null;
  bytes: number;
}

const G = globalThis;
const NewFunction = G.Function;
const MAX_ENTRIES = 8;
const MAX_BUILDERS = 64;
const entries: Entry[] = [];
let budgetBytes = 64 * 2 ** 20;
let strongBytes = 16 * 2 ** 20;
const builders = new Map<string, { build: Build; gather: Gather }>();

/** Sets the session's budget for cached rows (boot: an eighth of the memory limit). */
export function setRowCacheBudget(memoryLimitMb: number | undefined): void {
  const mb = Number(memoryLimitMb);
  budgetBytes = mb > 0 ? (mb * 2 ** 20) / 8 : 64 * 2 ** 20;
  strongBytes = budgetBytes / 4;
}

/** Code that makes row `r` from the value arrays `v0..vm`. */
function rowCode(shape: RowShape, names: string[]): string {
  const parts = names.map((_, k) => `v${k}[r]`);
  if (shape === 'array') return `[${parts.join(', ')}]`;
  return `{ ${names.map((name, k) => `${JSON.stringify(name)}: ${parts[k]}`).join(', ')} }`;
}

/** The build and check-and-gather loops for one shape and list of names, compiled once. */
function codeFor(shape: RowShape, names: string[]): { build: Build; gather: Gather } {
  const key = `${shape}\u0000${names.join('\u0000')}`;
  let fns = builders.get(key);
  if (fns) return fns;
  const m = names.length;
  const load = names.map((_, k) => `const v${k} = vals[${k}];`).join(' ');
  const make = rowCode(shape, names);
  const field = (k: number) => (shape === 'array' ? `o[${k}]` : `o[${JSON.stringify(names[k])}]`);
  // a value differs unless === or both are NaN
  const differs = names.map(
    (_, k) => `(${field(k)} !== v${k}[r] && (${field(k)} === ${field(k)} || v${k}[r] === v${k}[r]))`,
  );
  // an added or deleted property changes the count (for-in over a row: no array is allocated)
  const count = shape === 'array' ? `bad = o.length !== ${m};` : `let c = 0; for (const _ in o) c++; bad = c !== ${m};`;
  const build = NewFunction(
    'vals',
    'rows',
    'idx',
    'n',
    `${load} for (let k = 0; k < n; k++) { const r = idx === null ? k : idx[k]; rows[r] = ${make}; }`,
  ) as Build;
  const gather = NewFunction(
    'vals',
    'rows',
    'idx',
    'off',
    'n',
    'out',
    'sealed',
    `${load} const isExt = Object.isExtensible;
for (let k = 0; k < n; k++) {
  const r = idx === null ? off + k : idx[off + k];
  let o = rows[r];
  let bad = o === undefined || ${differs.join(' || ')} || (sealed && !isExt(o));
  if (!bad) { ${count} }
  if (bad) o = rows[r] = ${make};
  out[k] = o;
}`,
  ) as Gather;
  fns = { build, gather };
  // compiled once per list of names; a session that makes many differently named tables starts over
  if (builders.size >= MAX_BUILDERS) builders.clear();
  builders.set(key, fns);
  return fns;
}

/** Estimated heap cost of a row set: headers, fields, the array slot; text counted by its characters. */
function estimate(shape: RowShape, vals: ArrayLike<unknown>[], n: number, text: boolean[]): number {
  let bytes = n * (40 + 8 * vals.length + (shape === 'array' ? 16 : 0));
  for (let k = 0; k < vals.length; k++) {
    if (!text[k]) continue;
    const v = vals[k];
    for (let i = 0; i < n; i++) {
      const s = v[i];
      if (typeof s === 'string') bytes += 24 + s.length;
    }
  }
  return bytes;
}

/** The entry's rows, held strongly again for this job, or null when a GC took them. */
function setOf(x: Entry): RowSet | null {
  if (x.set) return x.set;
  const set =
    x.weak && WeakRefPrototypeDeref
      ? (ReflectApply(WeakRefPrototypeDeref, x.weak, []) as RowSet | undefined)
      : undefined;
  if (!set) return null;
  x.set = set;
  x.weak = null;
  queueSettle();
  return set;
}

function find(shape: RowShape, names: string[], columns: unknown[]): Entry | null {
  for (let e = 0; e < entries.length; e++) {
    const x = entries[e]!;
    if (x.shape !== shape || x.names.length !== names.length) continue;
    let same = true;
    for (let k = 0; k < names.length && same; k++) same = x.names[k] === names[k] && x.columns[k] === columns[k];
    if (!same) continue;
    entries.splice(e, 1);
    if (!setOf(x)) return null;
    entries.unshift(x);
    return x;
  }
  return null;
}

let settleQueued = false;
const resolved = new NativePromise<void>((r) => r());

/** At the end of the job, rows past strongBytes become weakly held (the text cache's way: WeakRefs made mid-job would pin them). */
function queueSettle(): void {
  if (settleQueued) return;
  settleQueued = true;
  ReflectApply(PromisePrototypeThen, resolved, [
    () => {
      settleQueued = false;
      // the most recently used sets stay strong up to strongBytes (a repeated question finds its
      // rows even after a major GC: weak rows rebuilt every run would feed the GC that drops them)
      let strong = 0;
      for (const x of entries) {
        if (!x.set) continue;
        strong += x.bytes;
        if (strong <= strongBytes) continue;
        x.weak = NativeWeakRef ? new NativeWeakRef(x.set) : null;
        x.set = null;
      }
    },
  ]);
}

function keep(entry: Entry): void {
  if (entry.bytes > budgetBytes) return;
  entries.unshift(entry);
  queueSettle();
  let total = 0;
  for (let e = 0; e < entries.length; e++) {
    total += entries[e]!.bytes;
    if (e >= MAX_ENTRIES || total > budgetBytes) {
      entries.length = e;
      break;
    }
  }
}

/** One selected column: its name, the column object (the cache key) and how to read every row. */
export interface RowColumn {
  name: string;
  column: unknown;
  /** Every value in row order (kept by the entry; never handed out). */
  values: () => ArrayLike<unknown>;
  /** True when the values are strings the session's text cache could otherwise let go. */
  text: boolean;
}

/**
 * Rows `off .. off + n - 1` of the visible rows (`idx`, or 0..total-1 when null) as a fresh array.
 * Builds the entry for all `total` rows when none is kept and the rows asked for are at least an
 * eighth of them; null (the caller builds its few rows itself) when they are fewer.
 */
export function cachedRows(
  shape: RowShape,
  cols: RowColumn[],
  total: number,
  idx: ArrayLike<number> | null,
  off: number,
  n: number,
): unknown[] | null {
  const names = cols.map((c) => c.name);
  const columns = cols.map((c) => c.column);
  const { build, gather } = codeFor(shape, names);
  let entry = find(shape, names, columns);
  // a few rows of a large table: reading them one by one (the caller's own path) is cheaper than
  // every value of every column (a long text column would be read whole)
  if (!entry && n * 8 < total) return null;
  if (!entry) {
    const vals = cols.map((c) => c.values());
    const rows = new NativeArray<unknown>(total);
    build(vals, rows, null, total);
    const bytes = estimate(
      shape,
      vals,
      total,
      cols.map((c) => c.text),
    );
    entry = { shape, names, columns, set: { vals, rows }, weak: null, bytes };
    // rows too large to keep (long text) were built for this call alone: no second pass over them
    if (bytes > budgetBytes && idx === null && off === 0 && n === total) return rows;
    keep(entry);
  }
  const set = entry.set!;
  const out = new NativeArray<unknown>(n);
  gather(set.vals, set.rows, idx, off, n, out, anySealed());
  return out;
}
