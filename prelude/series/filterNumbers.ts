/**
 * `s.filter(mask)` / `s[mask]` for a number or date Series and a mask with bytes (typed.ts): the kept
 * values and their labels gathered into typed arrays in one pass, where the per-value path builds
 * a position list and reads each value through the Series. The result is the Series that path
 * gives (values, missing as null, labels, name, dtype) and keeps a numeric view, so a reduction
 * after it is typed too (a date Series' `.dt` parts, `max()`). A date is read as a fresh Date each
 * time, as a date column's own values are. undefined when either side has no such view.
 */
import { NativeDate } from '../intrinsics.js';
import { Series } from './Series.js';
import { typedOf } from './typed.js';

export function filterNumbers(s: Series, mask: Series): Series | undefined {
  const m = mask.view;
  if (!m || m.kind !== 'bool' || m.bits.length !== s.length) return undefined;
  const v = typedOf(s);
  if (v?.kind !== 'num') return undefined;
  const bits = m.bits;
  const n = s.length;
  const k = countTrue(bits, n);
  const { values, valid, rows } = v;
  const out = new Float64Array(k);
  const has = valid ? new Uint8Array(k) : null;
  const labels = new Float64Array(k);
  const all = gather(bits, n, values, valid, rows, s.labels, out, has, labels);
  const ok = has && !all ? has : null;
  const read =
    v.type === 'date'
      ? (i: number) => (ok && !ok[i] ? null : new NativeDate(out[i]!))
      : ok
        ? (i: number) => (ok[i] ? out[i] : null)
        : (i: number) => out[i];
  const r = new Series(read, k, s.name, labels, null, s.dtypeName);
  r.view = { kind: 'num', type: v.type, values: out, valid: ok, rows: null };
  return r;
}

// The loops are functions of their own that end with the loop: V8 compiles a long loop while it
// runs (on-stack replacement) before the code after it has ever run, and that code, reached,
// throws the compiled loop away again on every later call (Node 20).

/** The 1s among the first `n` bytes of a mask. */
export function countTrue(bits: Uint8Array, n: number): number {
  let k = 0;
  for (let i = 0; i < n; i++) k += bits[i]!;
  return k;
}

/** The kept positions' values, presence bytes and labels; 1 when every kept value is present. */
function gather(
  bits: Uint8Array,
  n: number,
  values: Float64Array,
  valid: Uint8Array | null,
  rows: Uint32Array | null,
  from: ArrayLike<number> | null,
  out: Float64Array,
  has: Uint8Array | null,
  labels: Float64Array,
): number {
  let all = 1;
  for (let i = 0, j = 0; i < n; i++) {
    if (bits[i] === 0) continue;
    const r = rows ? rows[i]! : i;
    out[j] = values[r]!;
    if (has) all &= has[j] = valid![r] !== 0 ? 1 : 0;
    labels[j++] = from ? from[i]! : i;
  }
  return all;
}
