/**
 * quantile, corr, cumsum, pct_change, round. quantile interpolates linearly (numpy/pandas default);
 * corr is Pearson over rows where both values are present; cumsum/pct_change run in table order and
 * within groups when the table is grouped; round is round-half-to-even like numpy/pandas.
 */
import type { ColumnTable } from 'arquero';
import { GuestError } from '../errors/guestError.js';
import { quantileSorted } from './aggFuncs.js';
import { sourceOf, visibleRows } from '../fast/source.js';
import {
  assertTable,
  dtypeOf,
  isNull,
  isNumericDtype,
  isTable,
  newTable,
  resolveColumn,
  resolveColumns,
  values,
  describeType,
} from './common.js';
import { groupAgg } from './groupAgg.js';
import { withColumns } from './withColumns.js';

const nums = (vs: ArrayLike<unknown>) =>
  Array.from(vs)
    .filter((v): v is number => typeof v === 'number' && v === v)
    .sort((a, b) => a - b);
const quant = (vs: ArrayLike<unknown>, q: number | number[]) =>
  Array.isArray(q)
    ? Object.fromEntries(q.map((p) => [String(p), quantileSorted(nums(vs), p)]))
    : quantileSorted(nums(vs), q);
const numericCols = (t: ColumnTable) => t.columnNames().filter((c) => isNumericDtype(dtypeOf(t, c)));

/**
 * Quantile(s) of a column, of every numeric column, of each group, or of an array.
 * @example quantile(award_data, 'Award Amount', 0.9)
 * @example quantile([1, 2, 3, 4], [0.25, 0.75]) // { '0.25': 1.75, '0.75': 3.25 }
 */
export function quantile(t: unknown, col?: unknown, q?: unknown): unknown {
  if (typeof col === 'number' || (Array.isArray(col) && typeof col[0] === 'number')) [col, q] = [q, col]; // t.quantile(0.9, 'col')
  const qs = (q ?? 0.5) as number | number[];
  if (Array.isArray(t) || ArrayBuffer.isView(t))
    return quant(t as ArrayLike<unknown>, (col ?? qs) as number | number[]);
  assertTable(t, 'quantile');
  if (t.isGrouped()) {
    if (Array.isArray(qs))
      throw new GuestError('ValueError', 'quantile() on a grouped table takes one q', 'Call it once per q.');
    const cols = resolveColumns(
      t,
      col,
      'quantile()',
      numericCols(t).filter((c) => !t.groups()!.names.includes(c)),
    );
    return groupAgg(t, Object.fromEntries(cols.map((c) => [c, (vs: unknown[]) => quantileSorted(nums(vs), qs)])));
  }
  if (typeof col === 'string') return quant(values(t, resolveColumn(t, col, 'quantile()')), qs);
  const out: Record<string, unknown> = {};
  for (const c of resolveColumns(t, col, 'quantile()', numericCols(t))) out[c] = quant(values(t, c), qs);
  return out;
}

function pearson(xs: ArrayLike<unknown>, ys: ArrayLike<unknown>): number | null {
  let n = 0,
    sx = 0,
    sy = 0,
    sxx = 0,
    syy = 0,
    sxy = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    const y = ys[i];
    if (typeof x !== 'number' || typeof y !== 'number' || x !== x || y !== y) continue;
    n++;
    sx += x;
    sy += y;
    sxx += x * x;
    syy += y * y;
    sxy += x * y;
  }
  return pearsonOf(n, sx, sy, sxx, syy, sxy);
}

function pearsonOf(n: number, sx: number, sy: number, sxx: number, syy: number, sxy: number): number | null {
  if (n < 2) return null;
  const cov = sxy - (sx * sy) / n;
  const d = Math.sqrt((sxx - (sx * sx) / n) * (syy - (sy * sy) / n));
  return d === 0 ? null : Math.max(-1, Math.min(1, cov / d));
}

/**
 * pearson() over two host number/integer columns read from their Float64Arrays (rows in table
 * order, the same sums in the same order), or undefined for other columns.
 */
function pearsonTyped(t: ColumnTable, a: string, b: string): number | null | undefined {
  const sa = sourceOf(t, a);
  const sb = sourceOf(t, b);
  if (!sa || !sb || sa.kind !== 'num' || sb.kind !== 'num' || sa.type === 'date' || sb.type === 'date')
    return undefined;
  const rows = visibleRows(t, true);
  const m = rows ? rows.length : t.numRows();
  const xa = sa.values;
  const xb = sb.values;
  const va = sa.valid;
  const vb = sb.valid;
  let n = 0,
    sx = 0,
    sy = 0,
    sxx = 0,
    syy = 0,
    sxy = 0;
  for (let j = 0; j < m; j++) {
    const i = rows ? rows[j]! : j;
    const x = xa[i]!;
    const y = xb[i]!;
    if (va[i] === 0 || vb[i] === 0 || x !== x || y !== y) continue;
    n++;
    sx += x;
    sy += y;
    sxx += x * x;
    syy += y * y;
    sxy += x * y;
  }
  return pearsonOf(n, sx, sy, sxx, syy, sxy);
}

/**
 * Pearson correlation of two columns (a number), or the matrix of the numeric columns (a table).
 * @example corr(award_data, 'Award Amount', 'Award Year')
 */
export function corr(t: unknown, a?: unknown, b?: unknown): unknown {
  if (Array.isArray(t) && Array.isArray(a)) return pearson(t, a);
  assertTable(t, 'corr');
  if (a !== undefined && b !== undefined) {
    const ca = resolveColumn(t, a, 'corr()');
    const cb = resolveColumn(t, b, 'corr()');
    const fast = pearsonTyped(t, ca, cb);
    return fast !== undefined ? fast : pearson(values(t, ca), values(t, cb));
  }
  const cols = resolveColumns(t, a, 'corr()', numericCols(t));
  const vals = cols.map((c) => values(t, c));
  const out: Record<string, unknown[]> = { column: cols };
  cols.forEach((c, j) => (out[c] = cols.map((_, i) => (i === j ? 1 : pearson(vals[i], vals[j])))));
  return newTable(out, ['column', ...cols]);
}

/** Runs `step` over each partition in table order, writing results per backing row. */
function running(t: ColumnTable, cols: string[], step: () => (v: unknown) => unknown): ColumnTable {
  const outs: Record<string, unknown[]> = {};
  for (const c of cols) {
    const col = t.column(c)!;
    const arr = new Array(t.totalRows()).fill(null);
    for (const part of t.partitions() as ArrayLike<number>[]) {
      const f = step();
      for (let i = 0; i < part.length; i++) arr[part[i]] = f(col.at(part[i]));
    }
    outs[c] = arr;
  }
  return withColumns(t, Object.fromEntries(cols.map((c) => [c, (r: number) => outs[c][r]])));
}

/**
 * Cumulative sum per column (nulls stay null and are skipped), in table order, within groups.
 * @example award_data.orderby('Award Year').cumsum('Award Amount')
 */
export function cumsum(t: unknown, cols?: unknown): unknown {
  if (Array.isArray(t)) {
    let s = 0;
    return t.map((v) => (isNull(v) ? null : (s += Number(v))));
  }
  assertTable(t, 'cumsum');
  return running(t, resolveColumns(t, cols, 'cumsum()', numericCols(t)), () => {
    let s = 0;
    return (v) => (isNull(v) ? null : (s += Number(v)));
  });
}

/**
 * Fractional change from `periods` rows earlier (null when either value is null; no filling).
 * @example pct_change(yearly, 'Award Amount')
 */
export function pct_change(t: unknown, cols?: unknown, options: { periods?: number } = {}): unknown {
  const periods = options.periods ?? 1;
  const stepper = () => {
    const prev: unknown[] = [];
    return (v: unknown) => {
      prev.push(v);
      const p = prev.length > periods ? prev[prev.length - 1 - periods] : null;
      return isNull(v) || isNull(p) ? null : Number(v) / Number(p) - 1;
    };
  };
  if (Array.isArray(t)) {
    const f = stepper();
    return t.map(f);
  }
  assertTable(t, 'pct_change');
  return running(t, resolveColumns(t, cols, 'pct_change()', numericCols(t)), stepper);
}

/** Round half to even at `decimals` (numpy's rule: scale, round, unscale). */
export function roundValue(x: unknown, decimals = 0): unknown {
  if (typeof x !== 'number' || !Number.isFinite(x)) return x;
  const m = 10 ** decimals;
  const y = x * m;
  let r = Math.round(y);
  // y - trunc(y) is y % 1 exactly (the low bits of y), without the slower remainder
  if (Math.abs(y - Math.trunc(y)) === 0.5) r = 2 * Math.round(y / 2);
  return r / m;
}

/**
 * Rounds a number, an array, or a table's numeric columns (`{ column: decimals }` per column).
 * Half to even like pandas: round(2.5) === 2, round(0.125, 2) === 0.12.
 * @example round(award_data.describe(), 1)
 */
export function round(x: unknown, decimals: unknown = 0): unknown {
  if (isTable(x)) {
    const per = decimals !== null && typeof decimals === 'object' ? (decimals as Record<string, number>) : null;
    const cols = per ? resolveColumns(x, Object.keys(per), 'round()') : x.columnNames();
    return withColumns(
      x,
      Object.fromEntries(
        cols.map((c) => {
          const col = x.column(c)!;
          const d = per ? per[c] : (decimals as number);
          return [c, (r: number) => roundValue(col.at(r), d)];
        }),
      ),
    );
  }
  if (Array.isArray(x)) return x.map((v) => roundValue(v, decimals as number));
  if (typeof x === 'number' || isNull(x)) return isNull(x) ? null : roundValue(x, decimals as number);
  throw new GuestError(
    'TypeError',
    `round() expects a number, an array or a table, got ${describeType(x)}`,
    'Example: round(3.14159, 2).',
  );
}
