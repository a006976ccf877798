/** drop_duplicates, fillna, dropna: cleaning with pandas semantics (NaN counts as null). */
import { BitSet, type ColumnTable } from 'arquero';
import { GuestError } from '../errors/guestError.js';
import { assertTable, isNull, resolveColumns } from './common.js';
import { withColumns } from './withColumns.js';

const keyPart = (v: unknown) => (v instanceof Date ? `D${v.getTime()}` : isNull(v) ? null : v);

/**
 * Drops repeated rows (over `subset` columns, default all), keeping the first ('first'), the last
 * ('last') or none (false) of each set of duplicates. Row order is kept.
 * @example drop_duplicates(award_data, ['Agency', 'Phase'])
 */
export function drop_duplicates(
  t: unknown,
  subset?: unknown,
  options: { keep?: 'first' | 'last' | false } = {},
): ColumnTable {
  assertTable(t, 'drop_duplicates');
  if (subset && typeof subset === 'object' && !Array.isArray(subset)) {
    const o = subset as { subset?: unknown; keep?: 'first' | 'last' | false };
    return drop_duplicates(t, o.subset, o);
  }
  const keep = options.keep ?? 'first';
  const cols = resolveColumns(t, subset, 'drop_duplicates()').map((c) => t.column(c)!);
  const idx = Array.from(t.indices());
  const key = (r: number) => JSON.stringify(cols.map((c) => keyPart(c.at(r))));
  const counts = new Map<string, number>();
  if (keep === false) for (const r of idx) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
  const seen = new Set<string>();
  const bits = new BitSet(t.totalRows());
  const order = keep === 'last' ? idx.slice().reverse() : idx;
  for (const r of order) {
    const k = key(r);
    if (keep === false ? counts.get(k) === 1 : !seen.has(k)) bits.set(r);
    seen.add(k);
  }
  return t.create({ filter: bits });
}

/**
 * Replaces nulls/NaN: one value for every column, or { column: value }.
 * @example fillna(award_data, { 'Award Amount': 0 })
 */
export function fillna(t: unknown, value: unknown): ColumnTable {
  assertTable(t, 'fillna');
  if (value === undefined)
    throw new GuestError(
      'TypeError',
      'fillna() needs a value',
      "Example: fillna(award_data, { 'Award Amount': 0 }) or t.fillna(0). (method='ffill' is not supported.)",
    );
  const perCol = value !== null && typeof value === 'object' && !(value instanceof Date) && !Array.isArray(value);
  const names = perCol ? resolveColumns(t, Object.keys(value as object), 'fillna()') : t.columnNames();
  const cols: Record<string, (row: number) => unknown> = {};
  for (const name of names) {
    const col = t.column(name)!;
    const fill = perCol ? (value as Record<string, unknown>)[name] : value;
    cols[name] = (r) => {
      const v = col.at(r);
      return isNull(v) ? fill : v;
    };
  }
  return withColumns(t, cols);
}

/**
 * Drops rows with nulls/NaN in any (how='any') or all (how='all') of the `subset` columns.
 * @example dropna(award_data, { subset: ['Award Amount'] })
 */
export function dropna(
  t: unknown,
  options: { subset?: unknown; how?: 'any' | 'all' } | string | string[] = {},
): ColumnTable {
  assertTable(t, 'dropna');
  const opts = typeof options === 'string' || Array.isArray(options) ? { subset: options } : options;
  const cols = resolveColumns(t, opts.subset, 'dropna()').map((c) => t.column(c)!);
  const all = opts.how === 'all';
  const bits = new BitSet(t.totalRows());
  t.scan((r) => {
    const nulls = cols.reduce((n, c) => n + (isNull(c.at(r!)) ? 1 : 0), 0);
    if (all ? nulls < cols.length : nulls === 0) bits.set(r!);
  });
  return t.create({ filter: bits });
}
