/**
 * Aggregation functions with pandas semantics, over the values of one column (or group):
 * nulls/NaN are skipped by sum, mean, median, min, max, std, var, nunique, first, last;
 * `count` counts non-null values, `size` counts rows. An empty or all-null sum is 0 (pandas
 * min_count=0), other all-null aggregates are null (pandas NaN). std/var use ddof=1.
 */
import { GuestError } from '../errors/guestError.js';
import { compareValues, isNull } from './common.js';
import { selectQuantiles } from './selectQuantile.js';

/** An aggregation over a list of values. */
export type AggFn = (values: readonly unknown[]) => unknown;

const nonNull = (vs: readonly unknown[]) => vs.filter((v) => !isNull(v));

function numbers(vs: readonly unknown[], name: string): number[] {
  const out: number[] = [];
  for (const v of vs) {
    if (isNull(v)) continue;
    if (typeof v === 'number') out.push(v);
    else if (typeof v === 'boolean') out.push(v ? 1 : 0);
    else if (v instanceof Date) out.push(v.getTime());
    else
      throw new GuestError(
        'TypeError',
        `${name}() needs numbers, got ${typeof v === 'string' ? `the string '${String(v).slice(0, 30)}'` : typeof v}`,
        `Apply ${name} to numeric columns only (e.g. 'Award Amount'); for text use 'count', 'nunique', 'first' or value_counts.`,
      );
  }
  return out;
}

/** Linear-interpolated quantile of sorted numbers (numpy's default, as pandas uses). */
export function quantileSorted(sorted: readonly number[], q: number): number | null {
  if (!sorted.length) return null;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return lo === hi ? sorted[lo] : sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/**
 * Sample variance (ddof=1) of numbers in order, two passes as pandas' nanvar: the mean (the sum
 * in order over n), then the sum of squared deviations in order. null under two values. Every
 * path that gives std/var (Series, agg, describe, their typed fast paths) calls this or does the
 * same additions in the same order, so they agree to the last bit.
 */
export function sampleVariance(xs: ArrayLike<number>): number | null {
  const n = xs.length;
  if (n < 2) return null;
  const mean = sumOf(xs, n) / n;
  return squaredDeviations(xs, n, mean) / (n - 1);
}

// The two passes are functions that end with their loop: V8 compiles a long loop while it runs
// (on-stack replacement) before the code after it has ever run, and that code, reached, throws the
// compiled loop away again on every later call (Node 20). Same additions in the same order.
function sumOf(xs: ArrayLike<number>, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += xs[i]!;
  return sum;
}

function squaredDeviations(xs: ArrayLike<number>, n: number, mean: number): number {
  let m2 = 0;
  for (let i = 0; i < n; i++) {
    const d = xs[i]! - mean;
    m2 += d * d;
  }
  return m2;
}

function variance(vs: readonly unknown[], name: string): number | null {
  return sampleVariance(numbers(vs, name));
}

const extreme = (sign: 1 | -1) => (vs: readonly unknown[]) => {
  let best: unknown = null;
  for (const v of vs) if (!isNull(v) && (best === null || compareValues(v, best) * sign > 0)) best = v;
  return best;
};

/** The named aggregations accepted by agg(), pivot_table() and groupby shortcuts. */
export const AGG_FUNCS: Readonly<Record<string, AggFn>> = {
  sum: (vs) => numbers(vs, 'sum').reduce((a, b) => a + b, 0),
  mean: (vs) => {
    const xs = numbers(vs, 'mean');
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
  },
  median: (vs) => selectQuantiles(Float64Array.from(numbers(vs, 'median')), [0.5])[0],
  min: extreme(-1),
  max: extreme(1),
  count: (vs) => nonNull(vs).length,
  size: (vs) => vs.length,
  nunique: (vs) => new Set(nonNull(vs).map((v) => (v instanceof Date ? v.getTime() : v))).size,
  std: (vs) => {
    const v = variance(vs, 'std');
    return v === null ? null : Math.sqrt(v);
  },
  var: (vs) => variance(vs, 'var'),
  first: (vs) => {
    for (const v of vs) if (!isNull(v)) return v;
    return null;
  },
  last: (vs) => {
    for (let i = vs.length - 1; i >= 0; i--) if (!isNull(vs[i])) return vs[i];
    return null;
  },
  prod: (vs) => numbers(vs, 'prod').reduce((a, b) => a * b, 1),
};

/** Aliases LLMs write for the same aggregations. */
const ALIASES: Readonly<Record<string, string>> = {
  average: 'mean',
  avg: 'mean',
  total: 'sum',
  stdev: 'std',
  variance: 'var',
  len: 'size',
  product: 'prod',
  distinct: 'nunique',
  n: 'size',
};

/** Resolves an aggregation name or function; throws with the list of names when unknown. */
export function aggFn(spec: unknown): { name: string; fn: AggFn } {
  if (typeof spec === 'function')
    return { name: (spec as Function).name || 'custom', fn: (vs) => (spec as (v: unknown[]) => unknown)(vs.slice()) };
  const name = typeof spec === 'string' ? (Object.hasOwn(ALIASES, spec) ? ALIASES[spec] : spec) : '';
  const fn = Object.hasOwn(AGG_FUNCS, name) ? AGG_FUNCS[name] : undefined;
  if (!fn) {
    throw new GuestError(
      'ValueError',
      `Unknown aggregation ${JSON.stringify(spec)}`,
      `Use one of ${Object.keys(AGG_FUNCS)
        .map((k) => `'${k}'`)
        .join(', ')}, or a function (values) => result.`,
    );
  }
  return { name, fn };
}

/** True when `s` names an aggregation. */
export function isAggName(s: unknown): boolean {
  return typeof s === 'string' && (Object.hasOwn(AGG_FUNCS, s) || Object.hasOwn(ALIASES, s));
}
