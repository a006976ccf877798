/** The columns of a table as arrays of visible rows (filter and order applied), each with a kind from ALL its values. */
import type { ColumnTable } from 'arquero';
import { isTable } from '../frame/common.js';
import { GuestError } from '../errors/guestError.js';

/** What a column holds, decided over every value (never a sample): the file type follows from it. */
export type FileKind = 'integer' | 'number' | 'date' | 'boolean' | 'string' | 'json' | 'null';

/** One column ready to encode. */
export interface FileColumn {
  name: string;
  kind: FileKind;
  values: ArrayLike<unknown>;
}

/**
 * `t` as a table for a file writer named `fn`.
 * @throws {GuestError} TypeError when `t` is not a table.
 */
export function fileTable(t: unknown, fn: string): ColumnTable {
  if (!isTable(t)) {
    throw new GuestError(
      'TypeError',
      `${fn}() expects a table, got ${t === null ? 'null' : Array.isArray(t) ? 'an array' : typeof t}`,
      `Pass an Arquero table, e.g. ${fn}(award_data.filter(...).select('Company', 'Award Amount')); for an array of objects use ${fn}(aq.from(rows)).`,
    );
  }
  return t as ColumnTable;
}

/**
 * Reads every column of `t` once.
 * @throws {GuestError} TypeError when `t` is not a table.
 */
export function columnsOf(t: unknown, fn: string): { numRows: number; columns: FileColumn[] } {
  const table = fileTable(t, fn);
  const columns = table.columnNames().map((name) => {
    const values = table.array(name) as ArrayLike<unknown>;
    return { name, kind: kindOf(values), values };
  });
  return { numRows: table.numRows(), columns };
}

/**
 * The kind of a column over every value (`rows`: positions to visit, null = all): integers are safe
 * integers (BigInts too) other than -0, which only a DOUBLE keeps; any object makes it JSON text.
 */
export function kindOf(values: ArrayLike<unknown>, rows: ArrayLike<number> | null = null): FileKind {
  let bits = 0;
  let whole = true;
  const n = rows ? rows.length : values.length;
  for (let k = 0; k < n; k++) {
    const v = values[rows ? rows[k] : k];
    if (v === null || v === undefined) continue;
    const t = typeof v;
    if (t === 'number') {
      bits |= 1;
      if (whole && (!Number.isSafeInteger(v) || (v === 0 && 1 / (v as number) < 0))) whole = false;
    } else if (t === 'bigint') bits |= 1;
    else if (v instanceof Date) bits |= 2;
    else if (t === 'boolean') bits |= 4;
    else if (t === 'string') bits |= 8;
    else bits |= 16;
  }
  if (bits === 0) return 'null';
  if (bits === 1) return whole ? 'integer' : 'number';
  if (bits === 2) return 'date';
  if (bits === 4) return 'boolean';
  if (bits & 16) return 'json';
  return 'string';
}

/** A value as text for string and JSON columns (dates as ISO-8601 UTC). */
export function textOf(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (typeof v === 'object') {
    try {
      return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)) ?? null;
    } catch {
      return String(v);
    }
  }
  return String(v);
}
