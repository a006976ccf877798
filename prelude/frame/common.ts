/** Shared helpers of the pandas-like API: table checks, column resolution, null tests, dtypes. */
import { ColumnTable, Table } from 'arquero';
import { unknownColumn } from '../errors/didYouMean.js';
import { GuestError } from '../errors/guestError.js';
import { LazyColumn } from '../data/lazyColumn.js';

/** The logical column types reported by `dtypes` and in table results. */
export type Dtype = 'number' | 'integer' | 'string' | 'date' | 'boolean' | 'object';

/** True for any Arquero table. */
export function isTable(x: unknown): x is ColumnTable {
  return x instanceof Table;
}

/** Throws a TypeError naming the helper when `t` is not a table. */
export function assertTable(t: unknown, fn: string): asserts t is ColumnTable {
  if (!isTable(t)) {
    throw new GuestError(
      'TypeError',
      `${fn}() expects an Arquero table as its first argument, got ${describeType(t)}`,
      `Call it as ${fn}(award_data, ...) or award_data.${fn}(...).`,
    );
  }
}

/** pandas' notion of missing: null, undefined and NaN. Empty strings are values. */
export function isNull(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'number' && v !== v);
}

/** Resolves one column name, or throws a KeyError with "did you mean". */
export function resolveColumn(t: ColumnTable, name: unknown, where: string): string {
  if (typeof name === 'number' && Number.isInteger(name)) {
    const n = t.columnName(name);
    if (n !== undefined) return n;
  }
  if (typeof name === 'string' && t.column(name) !== undefined) return name;
  throw unknownColumn(name, t.columnNames(), where);
}

/** Resolves a column name or list of names; undefined means `fallback` (default: all columns). */
export function resolveColumns(t: ColumnTable, names: unknown, where: string, fallback?: string[]): string[] {
  if (names === undefined || names === null) return fallback ?? t.columnNames();
  const list = Array.isArray(names) ? names : [names];
  return list.map((n) => resolveColumn(t, n, where));
}

/** The visible values of a column, in table order (filter and orderby applied). */
export function values(t: ColumnTable, name: string): unknown[] {
  return t.array(name) as unknown[];
}

/** A new table from column arrays (in `names` order). */
export function newTable(columns: Record<string, ArrayLike<unknown>>, names?: string[]): ColumnTable {
  return new ColumnTable(columns as never, names ?? Object.keys(columns));
}

/** The dtype of a column: the host schema type for award_data columns, else inferred from values. */
export function dtypeOf(t: ColumnTable, name: string): Dtype {
  const col = t.column(name) as unknown;
  if (col instanceof LazyColumn) return col.type;
  if (col instanceof Float64Array || col instanceof Float32Array)
    return inferDtype(col as unknown as ArrayLike<unknown>, 1000);
  if (ArrayBuffer.isView(col)) return 'integer';
  return inferDtype(sampleValues(t, name, 1000), 1000);
}

/** Up to `limit` non-null visible values of a column (stops scanning early). */
function sampleValues(t: ColumnTable, name: string, limit: number): unknown[] {
  const col = t.column(name)!;
  const out: unknown[] = [];
  t.scan((row, _data, stop) => {
    const v = col.at(row!);
    if (!isNull(v)) out.push(v);
    if (out.length >= limit) stop!();
  });
  return out;
}

/** Infers a dtype from up to `limit` non-null values. */
export function inferDtype(vals: ArrayLike<unknown>, limit = Infinity): Dtype {
  let kind: Dtype | null = null;
  let seen = 0;
  for (let i = 0; i < vals.length && seen < limit; i++) {
    const v = vals[i];
    if (isNull(v)) continue;
    seen++;
    const k: Dtype =
      typeof v === 'number'
        ? Number.isInteger(v)
          ? 'integer'
          : 'number'
        : typeof v === 'string'
          ? 'string'
          : typeof v === 'boolean'
            ? 'boolean'
            : v instanceof Date
              ? 'date'
              : 'object';
    if (kind === null) kind = k;
    else if (kind !== k) {
      if ((kind === 'integer' && k === 'number') || (kind === 'number' && k === 'integer')) kind = 'number';
      else return 'object';
    }
  }
  return kind ?? 'object';
}

/** True for 'number' and 'integer'. */
export function isNumericDtype(d: Dtype): boolean {
  return d === 'number' || d === 'integer';
}

/** Orders two non-null values: numbers numerically, dates by time, strings by code unit, else by type. */
export function compareValues(a: unknown, b: unknown): number {
  const ta = rank(a);
  const tb = rank(b);
  if (ta !== tb) return ta - tb;
  const x = ta === 2 ? (a as Date).getTime() : (a as number);
  const y = tb === 2 ? (b as Date).getTime() : (b as number);
  return x < y ? -1 : x > y ? 1 : 0;
}

function rank(v: unknown): number {
  return typeof v === 'boolean' ? 0 : typeof v === 'number' ? 1 : v instanceof Date ? 2 : typeof v === 'string' ? 3 : 4;
}

/** A short type description for error messages. */
export function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (v instanceof Date) return 'a Date';
  return typeof v === 'object'
    ? 'an object'
    : typeof v === 'string'
      ? `the string ${JSON.stringify(v.slice(0, 40))}`
      : `${typeof v} ${String(v)}`;
}

/** Columns that sum/mean without arguments include: numbers and booleans (pandas sums booleans). */
export function isSummable(d: Dtype): boolean {
  return d === 'number' || d === 'integer' || d === 'boolean';
}
