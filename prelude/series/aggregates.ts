/**
 * Series reductions with pandas semantics: missing values (null, NaN) are skipped; an empty or
 * all-missing sum is 0, every other empty reduction is null (pandas NaN); std/var use ddof=1;
 * booleans count as 0/1 (so `mask.sum()` counts and `mask.mean()` is a share).
 */
import { GuestError } from '../errors/guestError.js';
import { AGG_FUNCS, aggFn } from '../frame/aggFuncs.js';
import { selectQuantiles } from '../frame/selectQuantile.js';
import { compareValues, isNull } from '../frame/common.js';
import {
  fastCount,
  fastExtremePos,
  fastExtremeValue,
  fastSum,
  fastSumCount,
  fastVariance,
  presentNumbers,
} from './fastReduce.js';
import { Series } from './Series.js';

type S = Series;

/** The numeric values (booleans as 0/1), or a TypeError naming the method for text. */
export function numericValues(s: S, method: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const v = s.get(i);
    if (typeof v === 'number') {
      if (v === v) out.push(v);
    } else if (typeof v === 'boolean') out.push(v ? 1 : 0);
    else if (v instanceof Date) out.push(v.getTime());
    else if (!isNull(v)) {
      throw new GuestError(
        'TypeError',
        `Series.${method}() needs numbers, but column '${s.name ?? ''}' holds ${typeof v === 'string' ? `text such as '${v.slice(0, 30)}'` : typeof v}`,
        `Use ${method} on a numeric column (e.g. award_data['Award Amount'].${method}()); for text use .count(), .nunique(), .value_counts() or .str methods.`,
      );
    }
  }
  return out;
}

function extreme(s: S, sign: 1 | -1): { value: unknown; pos: number } {
  const fast = fastExtremePos(s, sign);
  if (fast !== undefined) return { value: fast < 0 ? null : s.get(fast), pos: fast };
  let best: unknown = null;
  let pos = -1;
  for (let i = 0; i < s.length; i++) {
    const v = s.get(i);
    if (!isNull(v) && (pos < 0 || compareValues(v, best) * sign > 0)) {
      best = v;
      pos = i;
    }
  }
  return { value: best, pos };
}

/** The present numbers as a Float64Array to read, not write (typed view or per value). */
function presentValues(s: S, method: string): Float64Array {
  return presentNumbers(s) ?? Float64Array.from(numericValues(s, method));
}

function quantileOf(s: S, q: unknown): unknown {
  const one = (x: unknown) => {
    const p = Number(x);
    if (!(p >= 0 && p <= 1))
      throw new GuestError(
        'ValueError',
        `quantile() takes q between 0 and 1, got ${String(x)}`,
        'Example: s.quantile(0.9) or s.quantile([0.25, 0.5, 0.75]).',
      );
    return p;
  };
  const qs = Array.isArray(q) ? q.map(one) : [one(q ?? 0.5)];
  // linear-time selection, the same answers as interpolating over the sorted values
  const got = selectQuantiles(presentValues(s, 'quantile'), qs);
  if (Array.isArray(q))
    return Series.of(
      got,
      s.name,
      q.map((_, i) => i),
    );
  return got[0];
}

const apply = (name: string) =>
  function (this: S): unknown {
    return AGG_FUNCS[name](this.toArray());
  };

/** Reductions installed on Series.prototype. */
export const AGGREGATES: Record<string, (this: S, ...a: never[]) => unknown> = {
  sum(this: S) {
    const f = fastSum(this);
    if (f !== undefined) return f;
    let t = 0;
    for (const v of numericValues(this, 'sum')) t += v;
    return t;
  },
  mean(this: S) {
    const f = fastSumCount(this);
    if (f) return f[1] ? f[0] / f[1] : null;
    const xs = numericValues(this, 'mean');
    let t = 0;
    for (const v of xs) t += v;
    return xs.length ? t / xs.length : null;
  },
  median(this: S) {
    return selectQuantiles(presentValues(this, 'median'), [0.5])[0];
  },
  min(this: S) {
    const f = fastExtremeValue(this, -1);
    return f !== undefined ? f : extreme(this, -1).value;
  },
  max(this: S) {
    const f = fastExtremeValue(this, 1);
    return f !== undefined ? f : extreme(this, 1).value;
  },
  idxmax(this: S) {
    const { pos } = extreme(this, 1);
    return pos < 0 ? null : this.label(pos);
  },
  idxmin(this: S) {
    const { pos } = extreme(this, -1);
    return pos < 0 ? null : this.label(pos);
  },
  argmax(this: S) {
    return extreme(this, 1).pos;
  },
  argmin(this: S) {
    return extreme(this, -1).pos;
  },
  count(this: S) {
    const f = fastCount(this);
    if (f !== undefined) return f;
    let n = 0;
    for (let i = 0; i < this.length; i++) if (!isNull(this.get(i))) n++;
    return n;
  },
  std(this: S) {
    const f = fastVariance(this);
    if (f !== undefined) return f === null ? null : Math.sqrt(f);
    return AGG_FUNCS.std(this.toArray());
  },
  var(this: S) {
    const f = fastVariance(this);
    return f !== undefined ? f : AGG_FUNCS.var(this.toArray());
  },
  prod: apply('prod'),
  first: apply('first'),
  last: apply('last'),
  quantile(this: S, q?: unknown) {
    return quantileOf(this, q);
  },
  any(this: S) {
    for (let i = 0; i < this.length; i++) {
      const v = this.get(i);
      if (!isNull(v) && v) return true;
    }
    return false;
  },
  all(this: S) {
    for (let i = 0; i < this.length; i++) {
      const v = this.get(i);
      if (!isNull(v) && !v) return false;
    }
    return true;
  },
  /** agg('sum') -> a number; agg(['min', 'max']) -> a Series of results labelled by position. */
  agg(this: S, spec?: unknown) {
    if (Array.isArray(spec))
      return Series.of(
        spec.map((f) => (AGGREGATES.agg as (this: S, x: unknown) => unknown).call(this, f)),
        this.name,
      );
    if (
      typeof spec === 'string' &&
      typeof (AGGREGATES as Record<string, unknown>)[spec] === 'function' &&
      spec !== 'agg'
    )
      return (AGGREGATES[spec] as () => unknown).call(this);
    return aggFn(spec).fn(this.toArray());
  },
};
AGGREGATES.aggregate = AGGREGATES.agg;
AGGREGATES.average = AGGREGATES.mean;
AGGREGATES.product = AGGREGATES.prod;
