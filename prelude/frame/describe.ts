/**
 * describe(): pandas' summary statistics. Numeric columns get count, mean, std, min, 25%, 50%, 75%,
 * max; text columns get count, unique, top, freq; dates get count, mean, min, quartiles, max.
 * Default: the numeric columns (all columns if there are none); `{ include: 'all' }` for every column.
 * The statistic names are in the first column, `stat` (pandas shows them as the index).
 */
import type { ColumnTable } from 'arquero';
import { GuestError } from '../errors/guestError.js';
import { sampleVariance } from './aggFuncs.js';
import { selectQuantiles } from './selectQuantile.js';
import { assertTable, dtypeOf, isNull, isNumericDtype, newTable, resolveColumns, values } from './common.js';
import { value_counts } from './valueCounts.js';
import { sourceOf, visibleRows } from '../fast/source.js';

/** Options of describe. */
export interface DescribeOptions {
  /** 'all' for every column; default numeric columns only. */
  include?: 'all' | 'number' | 'object';
  /** Percentiles to show. @default [0.25, 0.5, 0.75] */
  percentiles?: number[];
}

const label = (p: number) => `${+(p * 100).toFixed(4)}%`;

/**
 * Summary statistics per column.
 * @example describe(award_data)
 * @example award_data.describe('Agency')
 */
export function describe(t: unknown, cols?: unknown, options: DescribeOptions = {}): ColumnTable {
  assertTable(t, 'describe');
  if (cols && typeof cols === 'object' && !Array.isArray(cols)) return describe(t, undefined, cols as DescribeOptions);
  const { include, percentiles = [0.25, 0.5, 0.75] } = options;
  if (!Array.isArray(percentiles) || percentiles.some((p) => typeof p !== 'number' || !(p >= 0 && p <= 1)))
    throw new GuestError(
      'ValueError',
      `describe(): percentiles must be numbers between 0 and 1, got ${JSON.stringify(percentiles)}`,
      "Example: award_data.describe('Award Amount', { percentiles: [0.1, 0.5, 0.9] }).",
    );
  let names = resolveColumns(t, cols, 'describe()');
  if (cols === undefined && include !== 'all') {
    const numeric = names.filter((c) => isNumericDtype(dtypeOf(t, c)));
    const text = names.filter((c) => !isNumericDtype(dtypeOf(t, c)) && dtypeOf(t, c) !== 'date');
    names = include === 'object' ? text : numeric.length ? numeric : text;
  }
  const kinds = names.map((c) => {
    const d = dtypeOf(t, c);
    return isNumericDtype(d) ? 'num' : d === 'date' ? 'date' : 'cat';
  });
  const pct = percentiles.map(label);
  const stats = [
    'count',
    ...(kinds.includes('cat') ? ['unique', 'top', 'freq'] : []),
    ...(kinds.some((k) => k !== 'cat')
      ? ['mean', ...(kinds.includes('num') ? ['std'] : []), 'min', ...pct, 'max']
      : []),
  ];
  const out: Record<string, unknown[]> = { stat: stats };
  names.forEach((c, j) => {
    const vc = kinds[j] === 'cat' ? value_counts(t, c) : undefined;
    // a dictionary column's present values are what value_counts counted: no row is read again
    const counted = vc && sourceOf(t, c)?.kind === 'dict' ? sumOf(vc.array('count') as ArrayLike<number>) : undefined;
    const typed = kinds[j] === 'cat' ? undefined : presentInOrder(t, c);
    const vals = typed ?? (counted === undefined ? values(t, c).filter((v) => !isNull(v)) : []);
    const row: Record<string, unknown> = { count: counted ?? vals.length };
    if (vc) {
      row.unique = vc.numRows();
      row.top = vc.numRows() ? vc.get(c, 0) : null;
      row.freq = vc.numRows() ? vc.get('count', 0) : null;
    } else {
      const isDate = kinds[j] === 'date';
      const xs = typed ?? Float64Array.from(vals as unknown[], (v) => (v instanceof Date ? v.getTime() : Number(v)));
      const back = (x: number | null) => (x === null ? null : isDate ? new Date(x) : x);
      // mean and std in table order (as Series.mean/std add them), then min, the percentiles and
      // max selected (the values a sorted copy has at those places) instead of sorting
      const [mean, std] = meanStd(xs);
      row.mean = back(mean);
      if (!isDate) row.std = std;
      const q = selectQuantiles(xs, [0, ...percentiles, 1]);
      row.min = back(q[0]!);
      percentiles.forEach((_, i) => (row[pct[i]] = back(q[i + 1]!)));
      row.max = back(q[percentiles.length + 1]!);
    }
    out[c] = stats.map((s) => (s in row ? row[s] : null));
  });
  return newTable(out, ['stat', ...names]);
}

/**
 * The present values of a host float64 column (number, integer or date as ms) in table order, in
 * one pass into a Float64Array; undefined for other columns.
 */
function presentInOrder(t: ColumnTable, c: string): Float64Array | undefined {
  const src = sourceOf(t, c);
  if (!src || src.kind !== 'num') return undefined;
  const rows = visibleRows(t, true);
  const n = rows ? rows.length : t.numRows();
  const { values, valid } = src;
  const out = new Float64Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i]! : i;
    const x = values[r]!;
    if (valid[r] && x === x) out[k++] = x;
  }
  return k === n ? out : out.slice(0, k);
}

/** Mean and sample std (ddof=1, two passes as aggFuncs.ts), null when too few values. */
function meanStd(xs: ArrayLike<number>): [number | null, number | null] {
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += xs[i]!;
  const n = xs.length;
  const v = sampleVariance(xs);
  return [n ? sum / n : null, v === null ? null : Math.sqrt(v)];
}

// the loop ends its function (docs/architecture.md, "Inside the prelude")
function sumOf(xs: ArrayLike<number>): number {
  let n = 0;
  for (let i = 0; i < xs.length; i++) n += xs[i]!;
  return n;
}
