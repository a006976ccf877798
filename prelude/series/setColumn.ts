/**
 * `t['new'] = series` (pandas column assignment). The assignment reaches the column-access Proxy
 * (no table defines the name as an own property), which calls this: the table gets a new column
 * object map with the column added or replaced. Only this table object changes: tables derived
 * from it earlier keep their own column maps (Arquero shares maps between tables, so the map is
 * copied, never mutated). Values go by position over the visible rows: a Series or array of the
 * table's length, or one scalar for every row.
 */
import type { ColumnTable } from 'arquero';
import { GuestError } from '../errors/guestError.js';
import { Series } from './Series.js';

/** True for what `t[name] = value` turns into a column. */
export function isColumnValue(v: unknown): boolean {
  return (
    v instanceof Series ||
    Array.isArray(v) ||
    v === null ||
    v instanceof Date ||
    ['number', 'string', 'boolean'].includes(typeof v)
  );
}

/** Adds or replaces column `name` of `t` in place. */
export function setColumn(t: ColumnTable, name: string, value: unknown): void {
  const idx = t.indices() as Uint32Array;
  const n = idx.length;
  const len = value instanceof Series || Array.isArray(value) ? value.length : n;
  if (len !== n) {
    throw new GuestError(
      'ValueError',
      `Length of values (${len}) does not match the table's ${n} rows (assigning column '${name}')`,
      "Assign a Series computed from the same table (t['x'] = t['a'].mul(2)), an array of one value per row, or one value for every row.",
    );
  }
  const col = new Array<unknown>(t.totalRows()).fill(null);
  for (let i = 0; i < n; i++) {
    const v = value instanceof Series ? value.at0(i) : Array.isArray(value) ? value[i] : value;
    col[idx[i]] = v === undefined ? null : v;
  }
  const inner = t as unknown as { _data: Record<string, unknown>; _names: readonly string[] };
  inner._data = Object.freeze({ ...inner._data, [name]: col });
  if (!inner._names.includes(name)) inner._names = Object.freeze([...inner._names, name]);
}
