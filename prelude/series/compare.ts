/**
 * Comparisons, boolean masks and arithmetic between a Series and a scalar or another Series
 * (JavaScript cannot overload >, &, + on objects, so these are methods, as pandas also offers them).
 * Two Series combine position by position (they come from the same table); a comparison with a
 * missing value is false (ne: true), like pandas; arithmetic with a missing value is missing.
 */
import { GuestError } from '../errors/guestError.js';
import { compareValues, isNull } from '../frame/common.js';
import { to_datetime } from '../frame/dates.js';
import { betweenNumbers, combineBytes, combineMasks, compareNumber, notBytes, notMask } from './fastCompare.js';
import { comparisonKey, keptBits, keptMask, logicalKey, noteArithmetic, valuesKey } from './maskKept.js';
import { arithmeticNumbers } from './fastElementwise.js';
import type { BinaryOp } from './numberChain.js';
import { Series } from './Series.js';
import { scanEquals } from './typed.js';

type S = Series;

function other(s: S, x: unknown, method: string): (i: number) => unknown {
  if (x instanceof Series) {
    if (x.length !== s.length)
      throw new GuestError(
        'ValueError',
        `${method}(): the two Series have different lengths (${s.length} and ${x.length})`,
        'Combine columns of the same table (filter the table first, then take its columns).',
      );
    return (i) => x.get(i);
  }
  if (Array.isArray(x) && x.length === s.length) return (i) => x[i];
  return () => x;
}

/** Makes two values comparable: a date against a date string or number compares as dates. */
function coerce(a: unknown, b: unknown): [unknown, unknown] {
  if (a instanceof Date && !(b instanceof Date) && !isNull(b)) return [a, to_datetime(b)];
  if (b instanceof Date && !(a instanceof Date) && !isNull(a)) return [to_datetime(a), b];
  return [a, b];
}

/** The fast path: a number or string scalar against each value (no coercion can apply). */
function scalarTest(method: string, x: number | string): (v: unknown) => boolean {
  const t = typeof x;
  switch (method) {
    case 'eq':
      return (v) => v === x;
    case 'ne':
      return (v) => v !== x;
    case 'lt':
      return (v) => typeof v === t && (v as number) < (x as number);
    case 'le':
      return (v) => typeof v === t && (v as number) <= (x as number);
    case 'gt':
      return (v) => typeof v === t && (v as number) > (x as number);
    default:
      return (v) => typeof v === t && (v as number) >= (x as number);
  }
}

function comparison(method: string, test: (c: number) => boolean, missing = false) {
  const compute = computed(method, test, missing);
  return function (this: S, x: unknown): S {
    // a whole host column against a literal: the session's kept mask (maskKept.ts)
    const column = (typeof x === 'number' || typeof x === 'string') && valuesKey(this);
    const key = column ? comparisonKey(column, method, x) : null;
    if (key !== null) {
      const kept = keptMask(key, this, () => compute.call(this, x));
      if (kept) return kept;
    }
    return compute.call(this, x);
  };
}

function computed(method: string, test: (c: number) => boolean, missing: boolean) {
  return function (this: S, x: unknown): S {
    if (typeof x === 'number' && x === x) {
      const fast = compareNumber(this, method, x);
      if (fast) return fast;
    }
    if ((typeof x === 'number' && x === x) || typeof x === 'string') {
      const f = scalarTest(method, x);
      if (typeof x === 'string' && (method === 'eq' || method === 'ne')) {
        // a whole long-text column: the host compares the rows of the needle's byte length
        const bits = scanEquals(this, x, f(x) ? 1 : 0, f(`${x}\u0000`) ? 1 : 0, f(null) ? 1 : 0);
        if (bits) return Series.bools(bits, this);
      }
      // a Date column against a date string still needs coercion: take the general path
      if (typeof x === 'number' || this.dtypeName !== 'date') return this.maskValues(f);
    }
    const at = other(this, x, method);
    return this.mask((v, i) => {
      const [a, b] = coerce(v, at(i));
      if (isNull(a) || isNull(b)) return missing;
      if (typeof a !== typeof b && !(a instanceof Date && b instanceof Date)) return method === 'ne';
      return test(compareValues(a, b));
    });
  };
}

function logical(method: string, f: (a: boolean, b: boolean) => boolean) {
  return function (this: S, x: unknown): S {
    // two kept masks: the session's kept combination (maskKept.ts)
    const key = logicalKey(method, this, x);
    if (key !== null) {
      const p = keptBits(this)!;
      const q = keptBits(x)!;
      const kept = keptMask(key, this, () => Series.bools(combineBytes(p, q, method), this));
      if (kept) return kept;
    }
    const fast = combineMasks(this, x, method);
    if (fast) return fast;
    const at = other(this, x, method);
    return this.mask((v, i) => f(v === true, at(i) === true));
  };
}

function arithmetic(method: BinaryOp, f: (a: number, b: number) => number, strings = false) {
  return function (this: S, x: unknown): S {
    const fast = arithmeticNumbers(this, x, method);
    if (fast) {
      // a pending chain on a host column: its masks may be kept (maskKept.ts)
      if (typeof x === 'number') noteArithmetic(this, method, x, fast);
      return fast;
    }
    const at = other(this, x, method);
    return this.mapValues((v, i) => {
      const w = at(i);
      if (isNull(v) || isNull(w)) return null;
      if (strings && (typeof v === 'string' || typeof w === 'string')) return String(v) + String(w);
      const a = v instanceof Date ? v.getTime() : Number(v);
      const b = w instanceof Date ? w.getTime() : Number(w);
      if (a !== a || b !== b) {
        throw new GuestError(
          'TypeError',
          `${method}(): cannot do arithmetic with ${JSON.stringify(typeof v === 'string' ? v : w)}`,
          `Use ${method} on numeric columns; convert text with .astype('float').`,
        );
      }
      return f(a, b);
    });
  };
}

/** Masks, comparisons and arithmetic installed on Series.prototype. */
export const COMPARE: Record<string, (this: S, ...a: never[]) => unknown> = {
  eq: comparison('eq', (c) => c === 0),
  ne: comparison('ne', (c) => c !== 0, true),
  lt: comparison('lt', (c) => c < 0),
  le: comparison('le', (c) => c <= 0),
  gt: comparison('gt', (c) => c > 0),
  ge: comparison('ge', (c) => c >= 0),
  and: logical('and', (a, b) => a && b),
  or: logical('or', (a, b) => a || b),
  xor: logical('xor', (a, b) => a !== b),
  not(this: S) {
    const key = logicalKey('not', this);
    if (key !== null) {
      const p = keptBits(this)!;
      const kept = keptMask(key, this, () => Series.bools(notBytes(p), this));
      if (kept) return kept;
    }
    return notMask(this) ?? this.maskValues((v) => v !== true);
  },
  isin(this: S, values: unknown) {
    const list =
      values instanceof Series
        ? values.toArray()
        : values instanceof Set
          ? [...values]
          : Array.isArray(values)
            ? values
            : null;
    if (!list)
      throw new GuestError(
        'TypeError',
        `isin() expects an array of values, got ${typeof values}`,
        "Example: s.isin(['DOD', 'NASA']).",
      );
    const keys = new Set(list.map((v) => (v instanceof Date ? v.getTime() : v)));
    return this.maskValues((v) => !isNull(v) && keys.has(v instanceof Date ? v.getTime() : v));
  },
  between(this: S, lo: unknown, hi: unknown, inclusive: unknown = 'both') {
    const inc = typeof inclusive === 'boolean' ? (inclusive ? 'both' : 'neither') : String(inclusive);
    if (typeof lo === 'number' && typeof hi === 'number') {
      const fast = betweenNumbers(this, lo, hi, inc);
      if (fast) return fast;
    }
    return this.maskValues((v) => {
      if (isNull(v)) return false;
      const [a, l] = coerce(v, lo);
      const [, h] = coerce(v, hi);
      const cl = compareValues(a, l);
      const ch = compareValues(a, h);
      return (
        (inc === 'both' || inc === 'left' ? cl >= 0 : cl > 0) && (inc === 'both' || inc === 'right' ? ch <= 0 : ch < 0)
      );
    });
  },
  add: arithmetic('add', (a, b) => a + b, true),
  sub: arithmetic('sub', (a, b) => a - b),
  mul: arithmetic('mul', (a, b) => a * b),
  div: arithmetic('div', (a, b) => a / b),
  floordiv: arithmetic('floordiv', (a, b) => Math.floor(a / b)),
  mod: arithmetic('mod', (a, b) => a - Math.floor(a / b) * b),
  pow: arithmetic('pow', (a, b) => a ** b),
  radd: arithmetic('radd', (a, b) => b + a),
  rsub: arithmetic('rsub', (a, b) => b - a),
  rmul: arithmetic('rmul', (a, b) => b * a),
  rdiv: arithmetic('rdiv', (a, b) => b / a),
};
COMPARE.subtract = COMPARE.sub;
COMPARE.multiply = COMPARE.mul;
COMPARE.divide = COMPARE.div;
COMPARE.truediv = COMPARE.div;
