/** drop_duplicates, fillna, dropna: cleaning with pandas semantics (NaN counts as null). */
import { BitSet, type ColumnTable } from 'arquero';
import { keepStorageRows } from './bitWords.js';
import { GuestError } from '../errors/guestError.js';
import { combinableKeys } from '../fast/groups.js';
import { sourceOf } from '../fast/source.js';
import { SafeMap } from '../intrinsics.js';
import { assertTable, isNull, resolveColumns } from './common.js';
import { missingBits } from './valueCounts.js';
import { withColumns } from './withColumns.js';

// +-Infinity as tagged objects: JSON.stringify writes them as null, the missing key
const keyPart = (v: unknown) =>
  v instanceof Date ? `D${v.getTime()}` : isNull(v) ? null : v === Infinity || v === -Infinity ? { inf: v > 0 } : v;

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
  const names = resolveColumns(t, subset, 'drop_duplicates()');
  const fast = duplicatesOnCodes(t, names, keep);
  if (fast) return t.create({ filter: fast });
  const cols = names.map((c) => t.column(c)!);
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
 * drop_duplicates' rows over 1-3 host dictionary/number/date columns, on their key codes (the
 * same keys as the per-row key: missing and NaN one value, 0 and -0 one value), in the same visit
 * order; undefined for other columns.
 */
function duplicatesOnCodes(t: ColumnTable, names: readonly string[], keep: unknown): BitSet | undefined {
  const keys = combinableKeys(t, names);
  if (!keys) return undefined;
  const { kc, cells } = keys;
  // NaN is missing in a number column's key; a date column's NaN stays its own key there ('DNaN')
  const nan = names.map((name, i) => {
    const src = sourceOf(t, name);
    return src && src.kind === 'num' && src.type === 'date' ? -1 : kc[i]!.nan;
  });
  const idx = t.indices() as Uint32Array;
  const m = idx.length;
  const code = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    const r = idx[j]!;
    let c = 0;
    let scale = 1;
    for (let q = 0; q < kc.length; q++) {
      const x = kc[q]!.codes[r]!;
      c += (x === nan[q] ? 0 : x) * scale;
      scale *= kc[q]!.card;
    }
    code[j] = c;
  }
  // key -> times met (keep: false) or met at all: a lookup array while the codes fit, else a Map
  const dense = cells <= 1 << 22 ? new Int32Array(cells) : null;
  const sparse = dense ? null : new SafeMap<number, number>();
  const get = (c: number) => (dense ? dense[c]! : (sparse!.get(c) ?? 0));
  const bump = (c: number) => (dense ? dense[c]!++ : sparse!.set(c, (sparse!.get(c) ?? 0) + 1));
  const bits = new BitSet(t.totalRows());
  if (keep === false) {
    for (let j = 0; j < m; j++) bump(code[j]!);
    for (let j = 0; j < m; j++) if (get(code[j]!) === 1) bits.set(idx[j]!);
    return bits;
  }
  const last = keep === 'last';
  for (let s = 0; s < m; s++) {
    const j = last ? m - 1 - s : s;
    if (get(code[j]!) === 0) {
      bits.set(idx[j]!);
      bump(code[j]!);
    }
  }
  return bits;
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
 * keep[r] = 1 where row r is not missing. A function that ends with its loop: V8 compiles a long
 * loop while it runs (on-stack replacement) before the code after it has ever run, and that code,
 * reached, throws the compiled loop away again on every later call (Node 20).
 */
function keepPresent(missing: ArrayLike<unknown>, keep: Uint8Array, n: number): void {
  for (let r = 0; r < n; r++) keep[r] = missing[r] ? 0 : 1;
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
  const names = resolveColumns(t, opts.subset, 'dropna()');
  const cols = names.map((c) => t.column(c)!);
  const all = opts.how === 'all';
  const bits = new BitSet(t.totalRows());
  // each column's missing bits from its typed arrays (isna's), then one pass over the visible rows
  const missing = names.map((c, i) => missingBits(cols[i], sourceOf(t, c)));
  if (!t.isFiltered() && missing.length && missing.every((b) => b !== undefined)) {
    // every row visible: a keep byte per row, the bitmap then filled a word at a time
    const n = t.totalRows();
    const keep = new Uint8Array(n);
    if (missing.length === 1) keepPresent(missing[0]!, keep, n);
    else {
      // column by column: the missing count of each row, then its keep byte
      const nulls = new Uint8Array(n);
      for (const b of missing) for (let r = 0; r < n; r++) nulls[r] += b![r] ? 1 : 0;
      const k = cols.length;
      for (let r = 0; r < n; r++) keep[r] = (all ? nulls[r]! < k : nulls[r] === 0) ? 1 : 0;
    }
    return keepStorageRows(t, keep);
  }
  if (missing.every((b) => b !== undefined)) {
    const rows = t.isFiltered() ? (t.indices(false) as Uint32Array) : null;
    const m = rows ? rows.length : t.totalRows();
    for (let j = 0; j < m; j++) {
      const r = rows ? rows[j]! : j;
      let nulls = 0;
      for (const b of missing) nulls += b![r]!;
      if (all ? nulls < cols.length : nulls === 0) bits.set(r);
    }
    return t.create({ filter: bits });
  }
  t.scan((r) => {
    const nulls = cols.reduce((n, c) => n + (isNull(c.at(r!)) ? 1 : 0), 0);
    if (all ? nulls < cols.length : nulls === 0) bits.set(r!);
  });
  return t.create({ filter: bits });
}
