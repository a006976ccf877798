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
  let k = 0;
  for (let i = 0; i < n; i++) k += bits[i]!;
  const { values, valid, rows } = v;
  const out = new Float64Array(k);
  const has = valid ? new Uint8Array(k) : null;
  const labels = new Float64Array(k);
  const from = s.labels;
  let all = 1;
  for (let i = 0, j = 0; i < n; i++) {
    if (bits[i] === 0) continue;
    const r = rows ? rows[i]! : i;
    out[j] = values[r]!;
    if (has) all &= has[j] = valid![r] !== 0 ? 1 : 0;
    labels[j++] = from ? from[i]! : i;
  }
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
