/**
 * value_counts, unique, nunique, isna/notna with pandas semantics: nulls (and NaN) are dropped by
 * default, counts sort descending with ties in order of first appearance, `normalize` gives a
 * `proportion` column instead of `count`. Blank strings are values, not nulls (as in pandas).
 */
import type { ColumnTable } from 'arquero';
import { GuestError } from '../errors/guestError.js';
import {
  assertTable,
  isNull,
  isTable,
  newTable,
  resolveColumn,
  resolveColumns,
  values,
  describeType,
} from './common.js';
import { fastValueCounts } from '../fast/valueCounts.js';
import { sourceOf, visibleRows, type Source } from '../fast/source.js';
import { LazyColumn } from '../data/lazyColumn.js';
import { SafeWeakMap } from '../intrinsics.js';

/** Options of value_counts. */
export interface ValueCountsOptions {
  /** Proportions (summing to 1) instead of counts. @default false */
  normalize?: boolean;
  /** Skip null/NaN values. @default true */
  dropna?: boolean;
  /** Sort by count. @default true */
  sort?: boolean;
  /** Sort ascending instead of descending. @default false */
  ascending?: boolean;
}

const keyOf = (v: unknown): unknown =>
  v instanceof Date ? `D${v.getTime()}` : v === undefined || (typeof v === 'number' && v !== v) ? null : v;

/**
 * Counts of each distinct value (or combination of values) as a table: the column(s) plus `count`.
 * @example value_counts(award_data, 'Agency')
 */
export function value_counts(t: unknown, cols?: unknown, options: ValueCountsOptions = {}): ColumnTable {
  if (Array.isArray(t)) return value_counts(newTable({ value: t }), 'value', cols as ValueCountsOptions);
  assertTable(t, 'value_counts');
  if (cols && typeof cols === 'object' && !Array.isArray(cols))
    return value_counts(t, undefined, cols as ValueCountsOptions);
  const { normalize = false, dropna = true, sort = true, ascending = false } = options;
  const names = resolveColumns(t, cols, 'value_counts()');
  const fast = fastValueCounts(t, names, dropna); // one pass over key codes (fast/valueCounts.ts)
  const firsts: unknown[][] = [];
  let counts: number[] = [];
  if (fast) {
    const cols = names.map((name) => t.column(name)!);
    for (const r of fast.firsts)
      firsts.push(
        cols.map((c) => {
          const v = c.at(r);
          return isNull(v) ? null : v;
        }),
      );
    counts = fast.counts;
  } else {
    const columns = names.map((n) => values(t, n));
    const n = t.numRows();
    const index = new Map<unknown, number>();
    for (let i = 0; i < n; i++) {
      const row = columns.map((c) => c[i]);
      if (dropna && row.some(isNull)) continue;
      const key = row.length === 1 ? keyOf(row[0]) : JSON.stringify(row.map(keyOf));
      let k = index.get(key);
      if (k === undefined) {
        index.set(key, (k = counts.length));
        firsts.push(row.map((v) => (isNull(v) ? null : v)));
        counts.push(0);
      }
      counts[k]++;
    }
  }
  return countsTable(
    names.map((_, j) => firsts.map((row) => row[j])),
    names,
    counts,
    { normalize, sort, ascending },
  );
}

/**
 * value_counts' result from its counted keys (`keys[j][k]` the value of column j for key k,
 * `counts[k]` its count, keys in order of first appearance): sorted by count (stable, so ties keep that order),
 * then `count` or `proportion`.
 */
export function countsTable(
  keys: readonly ArrayLike<unknown>[],
  names: readonly string[],
  counts: ArrayLike<number>,
  { normalize = false, sort = true, ascending = false }: ValueCountsOptions,
): ColumnTable {
  const order = sort ? byCount(counts, ascending) : Array.from({ length: counts.length }, (_, i) => i);
  const total = sumOf(counts);
  const out: Record<string, unknown[]> = {};
  names.forEach((name, j) => {
    const col = keys[j]!;
    out[name] = order.map((i) => col[i]);
  });
  const label = normalize ? 'proportion' : 'count';
  out[label] = order.map((i) => (normalize ? (total ? counts[i]! / total : null) : counts[i]));
  return newTable(out, [...names, label]);
}

/** Key indices ordered by count (a stable counting sort: ties in index order, as a stable sort gives). */
function byCount(counts: ArrayLike<number>, ascending: boolean): number[] {
  const n = counts.length;
  const max = maxOf(counts);
  if (max > 4 * n + 1024) {
    const order = Array.from({ length: n }, (_, i) => i);
    return order.sort((a, b) => (ascending ? counts[a]! - counts[b]! : counts[b]! - counts[a]!));
  }
  const start = new Int32Array(max + 2);
  countPlaces(counts, ascending, max, start);
  prefixSums(start, max);
  const order = new Array<number>(n);
  place(counts, ascending, max, start, order);
  return order;
}

// Each loop over the keys ends its function (docs/architecture.md, "Inside the prelude"): with code
// after it, V8 threw its compile away on every call (value_counts of 186,000 distinct amounts).

function sumOf(counts: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < counts.length; i++) total += counts[i]!;
  return total;
}

function maxOf(counts: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < counts.length; i++) if (counts[i]! > max) max = counts[i]!;
  return max;
}

/** start[place + 1] = how many keys have that place (count, or max - count descending). */
function countPlaces(counts: ArrayLike<number>, ascending: boolean, max: number, start: Int32Array): void {
  for (let i = 0; i < counts.length; i++) start[(ascending ? counts[i]! : max - counts[i]!) + 1]++;
}

function prefixSums(start: Int32Array, max: number): void {
  for (let k = 0; k <= max; k++) start[k + 1] += start[k]!;
}

function place(counts: ArrayLike<number>, ascending: boolean, max: number, start: Int32Array, order: number[]): void {
  for (let i = 0; i < counts.length; i++) order[start[ascending ? counts[i]! : max - counts[i]!]!++] = i;
}

/**
 * Distinct values in order of appearance; null is included when present (pandas unique()).
 * @example unique(award_data, 'Phase')
 */
export function unique(t: unknown, col?: unknown): unknown[] {
  const vals = isTable(t) ? values(t, resolveColumn(t, col, 'unique()')) : Array.isArray(t) ? t : null;
  if (!vals)
    throw new GuestError(
      'TypeError',
      `unique() expects a table and a column, or an array; got ${describeType(t)}`,
      "Use unique(award_data, 'Agency').",
    );
  const seen = new Set<unknown>();
  const out: unknown[] = [];
  for (const v of vals) {
    const k = keyOf(v);
    if (!seen.has(k)) {
      seen.add(k);
      out.push(isNull(v) ? null : v);
    }
  }
  return out;
}

/**
 * Number of distinct non-null values of a column (a number), or of every column (an object).
 * @example nunique(award_data, 'Agency')
 */
export function nunique(
  t: unknown,
  col?: unknown,
  options: { dropna?: boolean } = {},
): number | Record<string, number> {
  if (col && typeof col === 'object' && !Array.isArray(col)) return nunique(t, undefined, col as { dropna?: boolean });
  const count = (vals: unknown[]) => {
    const u = unique(vals);
    return options.dropna === false ? u.length : u.filter((v) => !isNull(v)).length;
  };
  if (Array.isArray(t)) return count(t);
  assertTable(t, 'nunique');
  const one = (c: string) => {
    const host = hostDistinct(t, c);
    return host ? host[0] + (options.dropna === false ? host[1] : 0) : count(values(t, c));
  };
  if (typeof col === 'string' || typeof col === 'number') return one(resolveColumn(t, col, 'nunique()'));
  const out: Record<string, number> = {};
  for (const c of resolveColumns(t, col, 'nunique()')) out[c] = one(c);
  return out;
}

/**
 * `[distinct non-null strings, 1 when a row is null]` of a long-text column of a whole, unfiltered
 * table, counted by the host from the bytes (bridge.textScan `distinct`), or null.
 */
function hostDistinct(t: ColumnTable, c: string): [number, number] | null {
  if (visibleRows(t, false) !== null) return null;
  const col = t.column(c) as unknown;
  if (!(col instanceof LazyColumn)) return null;
  const pages = col.hostScanPages(t.numRows());
  return pages ? pages.distinct() : null;
}

/** A table of booleans over the same rows, computed on read (no copy): true where the value is null/NaN. */
function maskTable(t: ColumnTable, want: boolean): ColumnTable {
  const data: Record<string, { length: number; at(i: number): boolean }> = {};
  for (const name of t.columnNames()) {
    const col = t.column(name)!;
    const bits = missingBits(col, sourceOf(t, name));
    if (bits) {
      const column = { length: col.length, at: (i: number) => (bits[i] === 1) === want };
      maskColumns.set(column, { bits, want });
      data[name] = column;
    } else data[name] = { length: col.length, at: (i) => isNull(col.at(i)) === want };
  }
  return t.create({ data: data as never, names: t.columnNames() });
}

/** The missing bits behind a column of an isna/notna table (by column object), for maskCount. */
const maskColumns = new SafeWeakMap<object, { bits: Uint8Array; want: boolean }>();

/**
 * `isNull(col.at(row))` for every storage row, read from the typed arrays: dictionary codes,
 * float64 validity (NaN missing too, except in dates, where at() gives an Invalid Date), a text
 * column's pages (the host's length scan gives -1 for a missing row, so no text is copied in) or
 * its value array; undefined for any other column.
 */
export function missingBits(col: unknown, src: Source | undefined): Uint8Array | undefined {
  if (src && src.kind === 'dict') {
    const { codes } = src;
    const bits = new Uint8Array(codes.length);
    for (let i = 0; i < codes.length; i++) bits[i] = +(codes[i]! < 0);
    return bits;
  }
  if (src && src.kind === 'num') {
    const { values, valid } = src;
    const bits = new Uint8Array(values.length);
    const date = src.type === 'date';
    for (let i = 0; i < values.length; i++) {
      const x = values[i]!;
      bits[i] = +(valid[i] === 0 || (!date && x !== x));
    }
    return bits;
  }
  if (!(col instanceof LazyColumn) || col.type !== 'string') return undefined;
  const scan = col.scanSource();
  if (!scan) return undefined;
  const n = col.length;
  const bits = new Uint8Array(n);
  if (scan.kind === 'all') {
    for (let i = 0; i < n; i++) bits[i] = +isNull(scan.all[i]);
    return bits;
  }
  const pages = scan.pages;
  if (pages.numRows !== n) return undefined;
  for (let p = 0, i = 0; i < n; p++) {
    const lens = pages.scans ? pages.scan(p, { op: 'len' }) : null;
    if (lens) {
      for (let k = 0; k < lens.length; k++, i++) bits[i] = +(lens[k]! < 0);
      continue;
    }
    const rows = pages.page(p);
    for (let k = 0; k < rows.length; k++, i++) bits[i] = +isNull(rows[k]);
  }
  return bits;
}

/**
 * The number of true values of column `name` of an isna/notna table over its visible rows (what
 * summing its booleans gives), or undefined when the column is not one with typed bits.
 */
export function maskCount(t: ColumnTable, name: string): number | undefined {
  const m = maskColumns.get(t.column(name) as object);
  if (!m) return undefined;
  const { bits, want } = m;
  const rows = t.isFiltered() ? (t.indices(false) as Uint32Array) : null;
  let missing = 0;
  if (rows) for (let j = 0; j < rows.length; j++) missing += bits[rows[j]!]!;
  else for (let i = 0; i < bits.length; i++) missing += bits[i]!;
  return want ? missing : (rows ? rows.length : bits.length) - missing;
}

/**
 * pandas isna: a table -> a boolean table (so `t.isna().sum()` counts nulls per column);
 * an array -> booleans; a value -> boolean.
 * @example award_data.isna().sum()
 */
export function isna(x: unknown): unknown {
  if (isTable(x)) return maskTable(x, true);
  if (Array.isArray(x)) return x.map(isNull);
  return isNull(x);
}

/** The opposite of isna. @example notna(award_data).sum() */
export function notna(x: unknown): unknown {
  if (isTable(x)) return maskTable(x, false);
  if (Array.isArray(x)) return x.map((v) => !isNull(v));
  return !isNull(x);
}
