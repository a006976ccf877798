/**
 * Row objects (and row arrays) of a column selection, from column values read once per session:
 * `t.select(...).objects()`, `t.tolist()`, `for (const r of t)` in a warm session cost one pass
 * of a compiled row literal over kept value arrays, not a column read per row.
 *
 * An entry holds, for one list of (name, column) pairs, every row's values, one array per column
 * (the table's filter and order only choose which rows are built). Every handout is a fresh array
 * of fresh rows: a guest may sort, splice, change, freeze or keep what it got, and no other call
 * ever sees it (rows shared between calls would carry one call's changes into another). A host date
 * column is kept as its times (DateTimes), never as Dates: a Date is mutable, and each call makes
 * its own (freshValues), as the column's `at(row)` and Arquero's objects() do, so a Date one run
 * changes (`t.objects()[0].d.setUTCFullYear(1900)`) is never in another call's rows.
 *
 * The entries of a session stay within a byte budget (an eighth of the memory limit, estimated);
 * a selection past it is built for the one call, as before. Between runs only the most recently
 * used sets, within a 32nd of the limit, stay strongly held; the others are held weakly, so a run
 * that needs the memory gets it back at the next major GC (the text cache keeps up to 60% of the
 * limit in pages); a set a GC took is read again.
 */
import {
  NativeArray,
  NativeDate,
  NativePromise,
  NativeWeakRef,
  NewFunction,
  PromisePrototypeThen,
  ReflectApply,
  WeakRefPrototypeDeref,
} from '../intrinsics.js';

/** 'object': `{ name: value, ... }` rows (objects()); 'array': `[value, ...]` rows (tolist()). */
export type RowShape = 'object' | 'array';

type Build = (
  vals: readonly Kept[],
  idx: ArrayLike<number> | null,
  off: number,
  n: number,
  out: unknown[],
  D: DateConstructor,
) => void;

/**
 * A host date column as the cache keeps it: the column's own times and validity (row r is a Date of
 * `values[r]` when `valid[r]`, else null; read only, never handed out).
 */
export class DateTimes {
  constructor(
    readonly values: Float64Array,
    readonly valid: Uint8Array,
  ) {}
}

/** A kept column: its values in row order, or a date column's times. */
export type Kept = ArrayLike<unknown> | DateTimes;

/** What an entry keeps: the values rows are built from (one per column). */
interface RowSet {
  vals: Kept[];
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

const MAX_ENTRIES = 8;
const MAX_BUILDERS = 64;
const entries: Entry[] = [];
let budgetBytes = 64 * 2 ** 20;
let strongBytes = 16 * 2 ** 20;
const builders = new Map<string, Build>();

/** Sets the session's budget for cached rows (boot: an eighth of the memory limit). */
export function setRowCacheBudget(memoryLimitMb: number | undefined): void {
  const mb = Number(memoryLimitMb);
  budgetBytes = mb > 0 ? (mb * 2 ** 20) / 8 : 64 * 2 ** 20;
  strongBytes = budgetBytes / 4;
}

/**
 * Per kept column, '1' for a date column's times (the row code makes a fresh Date per row from them,
 * `D` the session's Date) or '0' for values read as they are: part of a compiled row code's key.
 */
export function dateFlags(vals: readonly Kept[]): string {
  let flags = '';
  for (let k = 0; k < vals.length; k++) flags += vals[k] instanceof DateTimes ? '1' : '0';
  return flags;
}

/** The declarations row code reads from `vals`: `v<k>` values, or a date column's `t<k>` times and `m<k>` validity. */
export function rowLoad(names: string[], flags: string): string {
  let out = '';
  for (let k = 0; k < names.length; k++)
    out +=
      (k ? ' ' : '') +
      (flags[k] === '1' ? `const t${k} = vals[${k}].values, m${k} = vals[${k}].valid;` : `const v${k} = vals[${k}];`);
  return out;
}

/**
 * The names joined by `sep`, in a loop: rows are also built after their call (a bound array's fill:
 * data/rowLoop.ts), when the run may have replaced Array.prototype's methods (session 19).
 */
function joined(names: readonly string[], sep: string): string {
  let out = '';
  for (let k = 0; k < names.length; k++) out += (k ? sep : '') + names[k]!;
  return out;
}

/** Code that reads field k of row `r`: its value, or a fresh Date (or null) of a date column's times. */
function fieldCode(k: number, flags: string): string {
  return flags[k] === '1' ? `(m${k}[r] ? new D(t${k}[r]) : null)` : `v${k}[r]`;
}

/** Code that makes row `r` from the declarations of rowLoad (also data/rowLoop.ts's loops that keep rows). */
export function rowCode(shape: RowShape, names: string[], flags = ''): string {
  const parts: string[] = [];
  for (let k = 0; k < names.length; k++)
    parts[k] = shape === 'array' ? fieldCode(k, flags) : `${JSON.stringify(names[k])}: ${fieldCode(k, flags)}`;
  return shape === 'array' ? `[${joined(parts, ', ')}]` : `{ ${joined(parts, ', ')} }`;
}

/** The loop that builds rows `off .. off + n - 1` of the visible rows for one shape, list of names and date flags, compiled once. */
function codeFor(shape: RowShape, names: string[], flags: string): Build {
  const key = `${shape}\u0000${flags}\u0000${joined(names, '\u0000')}`;
  let build = builders.get(key);
  if (build) return build;
  build = NewFunction(
    'vals',
    'idx',
    'off',
    'n',
    'out',
    'D',
    `${rowLoad(names, flags)} for (let k = 0; k < n; k++) { const r = idx === null ? off + k : idx[off + k]; out[k] = ${rowCode(shape, names, flags)}; }`,
  ) as Build;
  // compiled once per list of names; a session that makes many differently named tables starts over
  if (builders.size >= MAX_BUILDERS) builders.clear();
  builders.set(key, build);
  return build;
}

type BuildAt = (
  vals: readonly Kept[],
  idx: ArrayLike<number> | null,
  pos: ArrayLike<number>,
  m: number,
  out: unknown[],
  D: DateConstructor,
) => void;
const buildersAt = new Map<string, BuildAt>();

/**
 * The object rows (as objects() builds them, every name of `names`) at visible positions `pos[0..m)`
 * (`idx[pos[k]]`, or `pos[k]`, of the value arrays `vals`), in a fresh array: the rows a chain's last
 * filter keeps (data/rowChain.ts).
 */
export function rowsAt(
  names: string[],
  vals: readonly Kept[],
  idx: ArrayLike<number> | null,
  pos: ArrayLike<number>,
  m: number,
): unknown[] {
  const flags = dateFlags(vals);
  const key = `${flags}\u0000${joined(names, '\u0000')}`;
  let build = buildersAt.get(key);
  if (!build) {
    build = NewFunction(
      'vals',
      'idx',
      'pos',
      'm',
      'out',
      'D',
      `${rowLoad(names, flags)} for (let k = 0; k < m; k++) { const r = idx === null ? pos[k] : idx[pos[k]]; out[k] = ${rowCode('object', names, flags)}; }`,
    ) as BuildAt;
    if (buildersAt.size >= MAX_BUILDERS) buildersAt.clear();
    buildersAt.set(key, build);
  }
  const out = new NativeArray<unknown>(m);
  build(vals, idx, pos, m, out, NativeDate);
  return out;
}

/** Estimated heap cost of a row set's values: a slot per value; text counted by its characters. */
function estimate(vals: Kept[], n: number, text: boolean[]): number {
  let bytes = n * 8 * vals.length;
  for (let k = 0; k < vals.length; k++) {
    const v = vals[k]!;
    if (!text[k] || v instanceof DateTimes) continue;
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
  /** Every value in row order, or a host date column's times (kept by the entry; never handed out). */
  values: () => Kept;
  /** True when the values are strings the session's text cache could otherwise let go. */
  text: boolean;
}

/**
 * The kept values of `cols` (one array per column, every row of the table) for `n` visible rows:
 * the entry rows of this shape and these columns are built from, made when none is kept and the rows
 * are at least an eighth of the table; null (the caller reads its few rows itself) when they are fewer.
 */
function valuesFor(shape: RowShape, cols: RowColumn[], total: number, n: number): Kept[] | null {
  const names = cols.map((c) => c.name);
  const columns = cols.map((c) => c.column);
  let entry = find(shape, names, columns);
  // a few rows of a large table: reading them one by one (the caller's own path) is cheaper than
  // every value of every column (a long text column would be read whole)
  if (!entry && n * 8 < total) return null;
  if (!entry) {
    const vals = cols.map((c) => c.values());
    const bytes = estimate(
      vals,
      total,
      cols.map((c) => c.text),
    );
    entry = { shape, names, columns, set: { vals }, weak: null, bytes };
    keep(entry);
  }
  return entry.set!.vals;
}

/**
 * The values objects() (or tolist()) rows of `cols` are built from, for a row loop (data/rowLoop.ts);
 * never handed to the guest: a date column's are its times (read them through `ownValues`).
 */
export function cachedValues(cols: RowColumn[], total: number, n: number, shape: RowShape = 'object'): Kept[] | null {
  return valuesFor(shape, cols, total, n);
}

/**
 * The Dates of one call (one objects(), tolist() or loop): every view the call makes of a date
 * column (the rows it builds, a loop's reused row, a chain's callbacks, a bound array's later rows)
 * reads the same fresh Dates, as they would all read the rows objects() builds once; no other call
 * ever sees them.
 */
export class CallDates {
  /** The columns' times (by their array: the entries of two selections keep the same one) and their Dates. */
  private readonly from: Float64Array[] = [];
  private readonly made: unknown[][] = [];

  /** The Dates of `times` at every visible row (`idx`, or 0..total-1 when null), indexed by table row. */
  of(times: DateTimes, idx: ArrayLike<number> | null, total: number): unknown[] {
    const had = this.had(times);
    if (had !== null) return had;
    const out = datesAt(times, idx, total, 0, idx === null ? total : idx.length);
    this.from[this.from.length] = times.values;
    this.made[this.made.length] = out;
    return out;
  }

  /**
   * What rows built now read of each kept column: the call's Dates of a date column a view of the call
   * read, else its times (the rows make their own Dates: no view read them); other columns as given.
   */
  settled(vals: readonly Kept[]): Kept[] {
    const out = new NativeArray<Kept>(vals.length);
    for (let k = 0; k < vals.length; k++) {
      const v = vals[k]!;
      out[k] = v instanceof DateTimes ? (this.had(v) ?? v) : v;
    }
    return out;
  }

  /** Every kept column as values: a date column's as the call's Dates (made now when no view made them). */
  all(vals: readonly Kept[], idx: ArrayLike<number> | null, total: number): ArrayLike<unknown>[] {
    const out = new NativeArray<ArrayLike<unknown>>(vals.length);
    for (let k = 0; k < vals.length; k++) out[k] = ownValues(vals[k]!, this, idx, total);
    return out;
  }

  /** The Dates already made for `times` in this call, or null. */
  had(times: DateTimes): unknown[] | null {
    for (let k = 0; k < this.from.length; k++) if (this.from[k] === times.values) return this.made[k]!;
    return null;
  }
}

/**
 * An array indexed by table row holding a fresh Date (or null) at the visible rows `off .. off + n - 1`
 * (`idx[k]`, or k); the other rows are never read.
 */
function datesAt(times: DateTimes, idx: ArrayLike<number> | null, total: number, off: number, n: number): unknown[] {
  const { values, valid } = times;
  const out = new NativeArray<unknown>(total);
  for (let k = off; k < off + n; k++) {
    const i = idx === null ? k : idx[k]!;
    out[i] = valid[i] ? new NativeDate(values[i]!) : null;
  }
  return out;
}

/** A kept column as a call reads it: its values, or for a date column the call's Dates (`dates`). */
export function ownValues(
  kept: Kept,
  dates: CallDates,
  idx: ArrayLike<number> | null,
  total: number,
): ArrayLike<unknown> {
  return kept instanceof DateTimes ? dates.of(kept, idx, total) : kept;
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
  dates: CallDates | null = null,
): unknown[] | null {
  const kept = valuesFor(shape, cols, total, n);
  if (!kept) return null;
  // a date column: each row's Date made as the row is (no other view of the call reads them), or the
  // call's Dates (`dates`: its loops read the same ones)
  let vals: readonly Kept[] = kept;
  if (dates !== null) {
    const all = off === 0 && n === (idx === null ? total : idx.length);
    const own = new NativeArray<Kept>(kept.length);
    for (let k = 0; k < kept.length; k++) {
      const v = kept[k]!;
      own[k] = !(v instanceof DateTimes) ? v : all ? dates.of(v, idx, total) : (dates.had(v) ?? v);
    }
    vals = own;
  }
  const build = codeFor(
    shape,
    cols.map((c) => c.name),
    dateFlags(vals),
  );
  const out = new NativeArray<unknown>(n);
  build(vals, idx, off, n, out, NativeDate);
  return out;
}

/**
 * Puts in `out` (an empty array) the `n` visible rows (`idx`, or 0..n-1 when null) of the values `vals`
 * of `names`, as cachedRows builds them: the rows of a bound array built after its call (data/rowLoop.ts).
 */
export function rowsInto(
  shape: RowShape,
  names: string[],
  vals: readonly Kept[],
  idx: ArrayLike<number> | null,
  n: number,
  out: unknown[],
): void {
  out.length = n;
  codeFor(shape, names, dateFlags(vals))(vals, idx, 0, n, out, NativeDate);
}

/**
 * Records which row sets the cache holds; the function returned puts that list back (the warm-up's
 * rows must not stay in the cache: runtime/warmUp.ts).
 */
export function rowsCheckpoint(): () => void {
  const saved = entries.slice();
  return () => {
    entries.length = 0;
    for (let i = 0; i < saved.length; i++) entries.push(saved[i]!);
  };
}
