/**
 * describe(): pandas' summary statistics. Numeric columns get count, mean, std, min, 25%, 50%, 75%,
 * max; text columns get count, unique, top, freq; dates get count, mean, min, quartiles, max.
 * Default: the numeric columns (all columns if there are none); `{ include: 'all' }` for every column.
 * The statistic names are in the first column, `stat` (pandas shows them as the index).
 */
import type { ColumnTable } from 'arquero';
import { quantileSorted, sampleVariance } from './aggFuncs.js';
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
    const typed = kinds[j] === 'cat' ? undefined : sortedPresent(t, c);
    const vals = typed ?? values(t, c).filter((v) => !isNull(v));
    const row: Record<string, unknown> = { count: vals.length };
    if (kinds[j] === 'cat') {
      const vc = value_counts(t, c);
      row.unique = vc.numRows();
      row.top = vc.numRows() ? vc.get(c, 0) : null;
      row.freq = vc.numRows() ? vc.get('count', 0) : null;
    } else {
      const isDate = kinds[j] === 'date';
      const xs = typed
        ? (typed as unknown as number[])
        : (Float64Array.from(vals as unknown[], (v) =>
            v instanceof Date ? v.getTime() : Number(v),
          ).sort() as unknown as number[]);
      const back = (x: number | null) => (x === null ? null : isDate ? new Date(x) : x);
      const [mean, std] = meanStd(xs);
      row.mean = back(mean);
      if (!isDate) row.std = std;
      row.min = back(xs.length ? xs[0] : null);
      percentiles.forEach((p, i) => (row[pct[i]] = back(quantileSorted(xs, p))));
      row.max = back(xs.length ? xs[xs.length - 1] : null);
    }
    out[c] = stats.map((s) => (s in row ? row[s] : null));
  });
  return newTable(out, ['stat', ...names]);
}

/**
 * The present values of a host float64 column (number, integer or date as ms), sorted, in one
 * pass into a Float64Array and a typed sort; undefined for other columns.
 */
function sortedPresent(t: ColumnTable, c: string): Float64Array | undefined {
  const src = sourceOf(t, c);
  if (!src || src.kind !== 'num') return undefined;
  const rows = visibleRows(t, false);
  const n = rows ? rows.length : t.numRows();
  const { values, valid } = src;
  const out = new Float64Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i]! : i;
    const x = values[r]!;
    if (valid[r] && x === x) out[k++] = x;
  }
  return (k === n ? out : out.slice(0, k)).sort();
}

/** Mean and sample std (ddof=1, two passes as aggFuncs.ts), null when too few values. */
function meanStd(xs: ArrayLike<number>): [number | null, number | null] {
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += xs[i]!;
  const n = xs.length;
  const v = sampleVariance(xs);
  return [n ? sum / n : null, v === null ? null : Math.sqrt(v)];
}
