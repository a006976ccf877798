/**
 * Element-wise Series methods: missing values, rounding, cumulative sums, map/apply, astype.
 * Missing values stay missing (null) unless the method exists to fill them.
 */
import { GuestError } from '../errors/guestError.js';
import { isNull } from '../frame/common.js';
import { to_datetime } from '../frame/dates.js';
import { roundValue } from '../frame/stats.js';
import { applyNumbers, laggedNumbers, mapCodes, missingMask } from './fastElementwise.js';
import {
  chainAbs,
  chainClip,
  chainCumulative,
  chainFill,
  chainLag,
  chainRound,
  type CumulativeOp,
} from './numberChain.js';
import { Series } from './Series.js';
import { scanEquals } from './typed.js';
import { keptMask, valuesKey } from './maskKept.js';

type S = Series;

const num = (v: unknown): number | null =>
  typeof v === 'number' ? (v === v ? v : null) : typeof v === 'boolean' ? Number(v) : null;

function cumulative(s: S, step: (acc: number, v: number) => number, op: CumulativeOp): S {
  const fast = chainCumulative(s, op);
  if (fast) return fast;
  let acc: number | null = null;
  return s.mapValues((v) => {
    const x = num(v);
    if (x === null) return null; // pandas skipna: the position stays missing, the run continues
    acc = acc === null ? x : step(acc, x);
    return acc;
  });
}

/** One value converted for astype(). */
function converter(type: unknown): (v: unknown) => unknown {
  const t = typeof type === 'function' ? (type as { name: string }).name.toLowerCase() : String(type).toLowerCase();
  if (['str', 'string', 'object', 'category'].includes(t))
    return (v) => (isNull(v) ? null : v instanceof Date ? v.toISOString().slice(0, 10) : String(v));
  if (/^u?int(8|16|32|64)?$/.test(t) || t === 'integer') {
    return (v) => {
      if (isNull(v)) return null;
      const x = Math.trunc(Number(v));
      if (x !== x)
        throw new GuestError(
          'ValueError',
          `astype('${t}'): cannot convert ${JSON.stringify(v)} to an integer`,
          "Clean the values first, e.g. s.str.replace(',', '') or s.fillna(0).",
        );
      return x;
    };
  }
  if (/^float(16|32|64)?$/.test(t) || t === 'number' || t === 'double')
    return (v) =>
      isNull(v)
        ? null
        : v instanceof Date
          ? v.getTime()
          : typeof v === 'boolean'
            ? Number(v)
            : v === ''
              ? null
              : Number(v);
  if (t === 'bool' || t === 'boolean') return (v) => (isNull(v) ? null : Boolean(v));
  if (t.startsWith('datetime') || t === 'date') return (v) => to_datetime(v);
  throw new GuestError(
    'TypeError',
    `astype(): unknown type ${JSON.stringify(String(type))}`,
    "Use astype('str'), astype('int'), astype('float'), astype('bool') or astype('datetime64[ns]').",
  );
}

/** isna (`missing` 1) or notna (0) of a whole long-text column from the host's stored lengths (no text read), or undefined. */
function textMissing(s: S, missing: 0 | 1): S | undefined {
  const bits = scanEquals(s, null, 0, missing ^ 1, missing);
  return bits ? Series.bools(bits, s) : undefined;
}

/**
 * `isna()` (`missing` 1) or `notna()` (0): of a whole host column (or arithmetic on one still
 * pending), the session's kept mask, as a comparison's (maskKept.ts: `award_data['Abstract'].isna()`
 * read the stored lengths of 219,590 rows again on every run); else computed.
 */
function keptMissing(s: S, missing: 0 | 1): S {
  const make = () => missingMask(s, missing) ?? textMissing(s, missing) ?? s.mask(missing ? isNull : (v) => !isNull(v));
  const column = valuesKey(s);
  const kept = column !== null ? keptMask(`${column}|${missing ? 'isna' : 'notna'}`, s, make) : undefined;
  return kept ?? make();
}

/** Element-wise methods installed on Series.prototype. */
export const ELEMENTWISE: Record<string, (this: S, ...a: never[]) => unknown> = {
  isna(this: S) {
    return keptMissing(this, 1);
  },
  notna(this: S) {
    return keptMissing(this, 0);
  },
  fillna(this: S, value: unknown) {
    if (value && typeof value === 'object' && 'method' in (value as object)) {
      const m = String((value as { method: unknown }).method);
      const fwd = m === 'ffill' || m === 'pad';
      const vals = this.toArray();
      let last: unknown = null;
      const order = fwd ? vals.map((_, i) => i) : vals.map((_, i) => vals.length - 1 - i);
      for (const i of order) {
        if (isNull(vals[i])) vals[i] = last;
        else last = vals[i];
      }
      return this.withValues(vals);
    }
    if (typeof value === 'number' && value === value) {
      const fast = chainFill(this, value);
      if (fast) return fast;
    }
    return this.mapValues((v) => (isNull(v) ? value : v));
  },
  ffill(this: S) {
    return (ELEMENTWISE.fillna as (this: S, v: unknown) => S).call(this, { method: 'ffill' });
  },
  bfill(this: S) {
    return (ELEMENTWISE.fillna as (this: S, v: unknown) => S).call(this, { method: 'bfill' });
  },
  dropna(this: S) {
    const keep: number[] = [];
    for (let i = 0; i < this.length; i++) if (!isNull(this.get(i))) keep.push(i);
    return Series.of(
      keep.map((i) => this.get(i)),
      this.name,
      keep.map((i) => this.label(i)),
      this.dtypeName,
    );
  },
  round(this: S, decimals?: unknown) {
    const d = Number(decimals ?? 0);
    // NaN stays NaN here, as roundValue leaves it
    const fast = chainRound(this, 10 ** d);
    if (fast) return fast;
    return this.mapValues((v) => (typeof v === 'number' ? roundValue(v, Number(decimals ?? 0)) : v));
  },
  abs(this: S) {
    const fast = chainAbs(this);
    if (fast) return fast;
    return this.mapValues((v) => {
      const x = num(v);
      return x === null ? null : Math.abs(x);
    });
  },
  cumsum(this: S) {
    return cumulative(this, (a, b) => a + b, 'cumsum');
  },
  cumprod(this: S) {
    return cumulative(this, (a, b) => a * b, 'cumprod');
  },
  cummax(this: S) {
    return cumulative(this, Math.max, 'cummax');
  },
  cummin(this: S) {
    return cumulative(this, Math.min, 'cummin');
  },
  shift(this: S, periods?: unknown) {
    const p = Number(periods ?? 1);
    const fast = laggedNumbers(this, p, null);
    if (fast) return fast;
    return this.mapValues((_, i) => {
      const v = this.get(i - p);
      return i - p < 0 || i - p >= this.length ? null : v;
    });
  },
  diff(this: S, periods?: unknown) {
    const p = Number(periods ?? 1);
    const fast = chainLag(this, p, false) ?? laggedNumbers(this, p, (a, b) => a - b);
    if (fast) return fast;
    return this.mapValues((v, i) => {
      const a = num(v);
      const b = i - p >= 0 && i - p < this.length ? num(this.get(i - p)) : null;
      return a === null || b === null ? null : a - b;
    });
  },
  pct_change(this: S, periods?: unknown) {
    const p = Number(periods ?? 1);
    const fast = chainLag(this, p, true) ?? laggedNumbers(this, p, (a, b) => a / b - 1);
    if (fast) return fast;
    return this.mapValues((v, i) => {
      const a = num(v);
      const b = i - p >= 0 && i - p < this.length ? num(this.get(i - p)) : null;
      return a === null || b === null ? null : a / b - 1;
    });
  },
  clip(this: S, lower?: unknown, upper?: unknown) {
    const bound = (b: unknown) => isNull(b) || typeof b === 'number';
    if (bound(lower) && bound(upper)) {
      // a missing bound (null, undefined, NaN) is no bound, as below; the chain reads it as NaN
      const fast = chainClip(this, isNull(lower) ? NaN : Number(lower), isNull(upper) ? NaN : Number(upper));
      if (fast) return fast;
    }
    return this.mapValues((v) => {
      const x = num(v);
      if (x === null) return null;
      let y = x;
      if (!isNull(lower)) y = Math.max(y, Number(lower));
      if (!isNull(upper)) y = Math.min(y, Number(upper));
      return y;
    });
  },
  /** map(fn) calls fn(value) for every value; map({ a: 1 }) / map(Map) look values up (missing -> null). */
  map(this: S, f: unknown) {
    if (typeof f === 'function')
      return (
        applyNumbers(this, f as (x: unknown) => unknown) ??
        this.mapValues((v) => (f as (x: unknown) => unknown)(v), this.name)
      );
    if (f && typeof f === 'object' && !(f instanceof Map) && !(f instanceof Series)) {
      const fast = mapCodes(this, f as Record<string, unknown>);
      if (fast) return fast;
    }
    if (f instanceof Map) return this.mapValues((v) => (f.has(v) ? f.get(v) : null));
    if (f && typeof f === 'object')
      return this.mapValues((v) =>
        (typeof v === 'string' || typeof v === 'number') && Object.hasOwn(f, String(v))
          ? (f as Record<string, unknown>)[String(v)]
          : null,
      );
    if (f instanceof Series)
      throw new GuestError(
        'TypeError',
        'map() with a Series is not supported',
        'Pass a function or an object: s.map(v => ...), s.map({ a: 1 }).',
      );
    throw new GuestError(
      'TypeError',
      `map() expects a function or an object, got ${typeof f}`,
      "Example: s.map(v => v * 2) or s.map({ 'Phase I': 1, 'Phase II': 2 }).",
    );
  },
  apply(this: S, f: unknown) {
    if (typeof f !== 'function')
      throw new GuestError(
        'TypeError',
        `apply() expects a function, got ${typeof f}`,
        'Example: s.apply(v => v > 1e6 ? "big" : "small").',
      );
    return applyNumbers(this, f as (x: unknown) => unknown) ?? this.mapValues((v) => (f as (x: unknown) => unknown)(v));
  },
  astype(this: S, type: unknown) {
    return this.mapValues(converter(type));
  },
  where(this: S, cond: unknown, other: unknown = null) {
    const c = cond instanceof Series ? cond : Series.of(cond as unknown[]);
    return this.mapValues((v, i) => (c.get(i) === true ? v : other instanceof Series ? other.get(i) : other));
  },
  replace(this: S, from: unknown, to?: unknown) {
    if (from && typeof from === 'object' && !Array.isArray(from))
      return this.mapValues((v) =>
        (typeof v === 'string' || typeof v === 'number') && Object.hasOwn(from, String(v))
          ? (from as Record<string, unknown>)[String(v)]
          : v,
      );
    const set = new Set(Array.isArray(from) ? from : [from]);
    return this.mapValues((v) => (set.has(v) ? to : v));
  },
};
ELEMENTWISE.isnull = ELEMENTWISE.isna;
ELEMENTWISE.notnull = ELEMENTWISE.notna;
