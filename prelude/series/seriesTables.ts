/**
 * Tables that stand for a pandas Series with an index: the results of `s.value_counts()`,
 * `t.groupby(k)['col'].sum()` and friends are tables (keys as columns, then one value column), so
 * they print and serialize like any table. A mark remembers which column is the value, so the Series
 * habits that follow still work: `.sort_values({ ascending: false })` without a column,
 * `.nlargest(3)`, `.idxmax()`, `.index`, `.values`, `.tolist()`, `.to_dict()`, `r['DOD']`.
 */
import type { ColumnTable } from 'arquero';

/** What a series-like table stands for: its key columns and its value column. */
export interface SeriesMark {
  keys: readonly string[];
  value: string;
}

const marks = new WeakMap<object, SeriesMark>();

/** Marks `t` as a keyed Series (returns t). */
export function markSeriesTable(t: ColumnTable, keys: readonly string[], value: string): ColumnTable {
  marks.set(t, { keys, value });
  return t;
}

/** The mark of `t`, if its columns are still there. */
export function seriesMark(t: unknown): SeriesMark | undefined {
  const m = typeof t === 'object' && t !== null ? marks.get(t) : undefined;
  if (!m) return undefined;
  const names = (t as ColumnTable).columnNames();
  return names.includes(m.value) && m.keys.every((k) => names.includes(k)) ? m : undefined;
}

/** Copies the mark of `from` onto `to` (verbs that keep rows' meaning: sort, head, filter). */
export function keepMark<T>(from: unknown, to: T): T {
  const m = typeof from === 'object' && from !== null ? marks.get(from) : undefined;
  if (m && typeof to === 'object' && to !== null) marks.set(to, m);
  return to;
}
