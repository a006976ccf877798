/**
 * Reductions over a Series' typed arrays (typed.ts): one loop over a Float64Array or a mask's bytes,
 * no array of values built first. Each gives exactly what the per-value path in aggregates.ts
 * gives (same order of additions, so the same floating-point result), or undefined when the Series
 * has no numeric view and the caller must take that path.
 */
import type { Series } from './Series.js';
import { numView, typedOf, type NumView } from './typed.js';

/** Calls f(value, position) for every present, non-NaN value of a numeric view, in order. */
function each(v: NumView, n: number, f: (x: number, i: number) => void): void {
  const { values, valid, rows } = v;
  if (rows) {
    for (let i = 0; i < n; i++) { const r = rows[i]!; const x = values[r]!; if ((valid === null || valid[r]) && x === x) f(x, i); }
  } else {
    for (let i = 0; i < n; i++) { const x = values[i]!; if ((valid === null || valid[i]) && x === x) f(x, i); }
  }
}

/** The present values as a Float64Array (for sorts and quantiles), or undefined. */
export function presentNumbers(s: Series): Float64Array | undefined {
  const v = numView(s);
  if (!v) return undefined;
  const out = new Float64Array(s.length);
  let k = 0;
  each(v, s.length, (x) => { out[k++] = x; });
  return k === out.length ? out : out.slice(0, k);
}

/** sum, or undefined. A mask counts its true values. */
export function fastSum(s: Series): number | undefined {
  const t = typedOf(s);
  if (t && t.kind === 'bool') { let c = 0; const b = t.bits; for (let i = 0; i < b.length; i++) c += b[i]!; return c; }
  const v = numView(s);
  if (!v) return undefined;
  const { values, valid, rows } = v;
  const n = s.length;
  let sum = 0;
  // the common case inlined: a plain column, every row present
  if (!rows && valid === null) { for (let i = 0; i < n; i++) { const x = values[i]!; if (x === x) sum += x; } return sum; }
  each(v, n, (x) => { sum += x; });
  return sum;
}

/** [sum, count] of the present values, or undefined. */
export function fastSumCount(s: Series): [number, number] | undefined {
  const t = typedOf(s);
  if (t && t.kind === 'bool') return [fastSum(s)!, t.bits.length];
  const v = numView(s);
  if (!v) return undefined;
  const { values, valid, rows } = v;
  const n = s.length;
  let sum = 0;
  let c = 0;
  if (!rows && valid === null) { for (let i = 0; i < n; i++) { const x = values[i]!; if (x === x) { sum += x; c++; } } return [sum, c]; }
  each(v, n, (x) => { sum += x; c++; });
  return [sum, c];
}

/** Sample variance (ddof=1, Welford as frame/aggFuncs.ts), null under two values; undefined without a view. */
export function fastVariance(s: Series): number | null | undefined {
  const v = numView(s);
  if (!v) return undefined;
  let mean = 0;
  let m2 = 0;
  let k = 0;
  each(v, s.length, (x) => { k++; const d = x - mean; mean += d / k; m2 += d * (x - mean); });
  return k < 2 ? null : m2 / (k - 1);
}

/** The position of the first smallest (sign -1) or largest (sign 1) value, -1 when none; undefined without a view. */
export function fastExtremePos(s: Series, sign: 1 | -1): number | undefined {
  const v = numView(s);
  if (!v) return undefined;
  let best = 0;
  let pos = -1;
  each(v, s.length, (x, i) => { if (pos < 0 || (sign > 0 ? x > best : x < best)) { best = x; pos = i; } });
  return pos;
}

/** The count of present values (numbers: not null and not NaN; dictionary text: not null); undefined otherwise. */
export function fastCount(s: Series): number | undefined {
  const t = typedOf(s);
  if (!t) return undefined;
  if (t.kind === 'bool') return t.bits.length;
  if (t.kind === 'dict') {
    let c = 0;
    const { codes, rows } = t;
    for (let i = 0; i < s.length; i++) if (codes[rows ? rows[i]! : i]! >= 0) c++;
    return c;
  }
  if (t.kind === 'num') { let c = 0; each(t, s.length, () => { c++; }); return c; }
  return undefined;
}
