/**
 * Comparisons and mask logic on typed arrays (typed.ts): a number column against a number in one
 * loop over its Float64Array, two masks combined byte by byte. Same answers as the per-value
 * paths of compare.ts (a missing value compares false, `ne` true); undefined when the Series has
 * no such view.
 */
import { Series } from './Series.js';
import { numView, typedOf } from './typed.js';

/** `s <op> x` for a number column and a number x (not NaN), or undefined. */
export function compareNumber(s: Series, method: string, x: number): Series | undefined {
  const v = numView(s);
  if (!v) return undefined;
  const { values, valid, rows } = v;
  const n = s.length;
  const bits = new Uint8Array(n);
  const missing = method === 'ne' ? 1 : 0;
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i]! : i;
    if (valid !== null && !valid[r]) {
      bits[i] = missing;
      continue;
    }
    const a = values[r]!;
    let b: boolean;
    switch (method) {
      case 'eq':
        b = a === x;
        break;
      case 'ne':
        b = a !== x;
        break;
      case 'lt':
        b = a < x;
        break;
      case 'le':
        b = a <= x;
        break;
      case 'gt':
        b = a > x;
        break;
      default:
        b = a >= x;
    }
    if (b) bits[i] = 1;
  }
  return Series.bools(bits, s);
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
  const p = x.bits;
  const q = y.bits;
  const n = p.length;
  const bits = new Uint8Array(n);
  if (method === 'and') for (let i = 0; i < n; i++) bits[i] = p[i]! & q[i]!;
  else if (method === 'or') for (let i = 0; i < n; i++) bits[i] = p[i]! | q[i]!;
  else for (let i = 0; i < n; i++) bits[i] = p[i]! ^ q[i]!;
  return Series.bools(bits, a);
}

/** The negation of a mask, or undefined. */
export function notMask(a: Series): Series | undefined {
  const x = typedOf(a);
  if (!x || x.kind !== 'bool') return undefined;
  const p = x.bits;
  const bits = new Uint8Array(p.length);
  for (let i = 0; i < p.length; i++) bits[i] = p[i]! ^ 1;
  return Series.bools(bits, a);
}
