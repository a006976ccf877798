/**
 * Comparisons and mask logic on typed arrays (typed.ts): a number column against a number in one
 * loop over its Float64Array, two masks combined byte by byte. Same answers as the per-value
 * paths of compare.ts (a missing value compares false, `ne` true); undefined when the Series has
 * no such view.
 */
import { Series } from './Series.js';
import { chainOrView, forEachBlock, wholeValues } from './numberChain.js';
import { numView, typedOf } from './typed.js';

/**
 * `s <op> x` for a number column, or a pending chain of steps on one (numberChain.ts: computed
 * block by block, never materialised), and a number x (not NaN), or undefined. A missing value
 * arrives as NaN, which compares as the per-value path compares a missing value: false, `ne` true.
 */
export function compareNumber(s: Series, method: string, x: number): Series | undefined {
  const c = chainOrView(s);
  if (!c) return undefined;
  const bits = new Uint8Array(s.length);
  let trues = 0;
  // a column in storage order: compared where it lies (no block copy)
  const whole = wholeValues(c);
  if (whole) trues = compareBlock(method, x, whole, s.length, bits, 0);
  else forEachBlock(c, (xs, at, len) => (trues += compareBlock(method, x, xs, len, bits, at)));
  const m = Series.bools(bits, s);
  // counted as made: sum() and mean() of the mask read no byte
  (m.view as { trues?: number }).trues = trues;
  return m;
}

// one loop per operator: no switch per value; returns the count of true values
function compareBlock(method: string, x: number, xs: Float64Array, len: number, bits: Uint8Array, at: number): number {
  let t = 0;
  switch (method) {
    case 'eq':
      for (let k = 0; k < len; k++) t += bits[at + k] = +(xs[k]! === x);
      return t;
    case 'ne':
      for (let k = 0; k < len; k++) t += bits[at + k] = +(xs[k]! !== x);
      return t;
    case 'lt':
      for (let k = 0; k < len; k++) t += bits[at + k] = +(xs[k]! < x);
      return t;
    case 'le':
      for (let k = 0; k < len; k++) t += bits[at + k] = +(xs[k]! <= x);
      return t;
    case 'gt':
      for (let k = 0; k < len; k++) t += bits[at + k] = +(xs[k]! > x);
      return t;
    default:
      for (let k = 0; k < len; k++) t += bits[at + k] = +(xs[k]! >= x);
      return t;
  }
}

/** `lo <= s <= hi` (bounds per `inclusive`) for a number column and number bounds, or undefined. */
export function betweenNumbers(s: Series, lo: number, hi: number, inclusive: string): Series | undefined {
  const v = numView(s);
  if (!v) return undefined;
  const { values, valid, rows } = v;
  const n = s.length;
  const bits = new Uint8Array(n);
  const incLo = inclusive === 'both' || inclusive === 'left';
  const incHi = inclusive === 'both' || inclusive === 'right';
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i]! : i;
    if (valid !== null && !valid[r]) continue;
    const a = values[r]!;
    if (a !== a) continue;
    if ((incLo ? a >= lo : a > lo) && (incHi ? a <= hi : a < hi)) bits[i] = 1;
  }
  return Series.bools(bits, s);
}

/** and/or/xor of two masks of the same length, byte by byte, or undefined. */
export function combineMasks(a: Series, b: unknown, method: string): Series | undefined {
  if (!(b instanceof Series) || b.length !== a.length) return undefined;
  const x = typedOf(a);
  const y = typedOf(b);
  if (!x || !y || x.kind !== 'bool' || y.kind !== 'bool') return undefined;
  return Series.bools(combineBytes(x.bits, y.bits, method), a);
}

/** and/or/xor of two mask byte arrays of the same length, into new bytes. */
export function combineBytes(p: Uint8Array, q: Uint8Array, method: string): Uint8Array {
  const n = p.length;
  // each loop ends its own function: code after a loop in the same function deopted the loop's
  // compiled code on every warm call (docs/architecture.md, "Inside the prelude")
  return method === 'and' ? andBytes(p, q, n) : method === 'or' ? orBytes(p, q, n) : xorBytes(p, q, n);
}

function andBytes(p: Uint8Array, q: Uint8Array, n: number): Uint8Array {
  const bits = new Uint8Array(n);
  for (let i = 0; i < n; i++) bits[i] = p[i]! & q[i]!;
  return bits;
}

function orBytes(p: Uint8Array, q: Uint8Array, n: number): Uint8Array {
  const bits = new Uint8Array(n);
  for (let i = 0; i < n; i++) bits[i] = p[i]! | q[i]!;
  return bits;
}

function xorBytes(p: Uint8Array, q: Uint8Array, n: number): Uint8Array {
  const bits = new Uint8Array(n);
  for (let i = 0; i < n; i++) bits[i] = p[i]! ^ q[i]!;
  return bits;
}

/** The negation of a mask, or undefined. */
export function notMask(a: Series): Series | undefined {
  const x = typedOf(a);
  if (!x || x.kind !== 'bool') return undefined;
  return Series.bools(notBytes(x.bits), a);
}

/** The negation of mask bytes, into new bytes. */
export function notBytes(p: Uint8Array): Uint8Array {
  const bits = new Uint8Array(p.length);
  for (let i = 0; i < p.length; i++) bits[i] = p[i]! ^ 1;
  return bits;
}
