/** BOOLEAN chunks: PLAIN booleans are the present values bit-packed, LSB first. */
import type { BoolPlan } from './plan.js';
import type { Encoded, Scratch } from './scratch.js';

/** Encodes rows [a, b) of a boolean plan into `s`. */
export function encodeBooleans(p: BoolPlan, a: number, b: number, s: Scratch): Encoded {
  const { values, valid, rows } = p;
  const flags = s.valid;
  const out = s.values;
  out.ensure(Math.ceil((b - a) / 8));
  const buf = out.buf;
  let pos = out.pos;
  let acc = 0;
  let bits = 0;
  let j = 0;
  for (let k = a; k < b; k++) {
    const r = rows ? rows[k] : k;
    const ok = valid ? valid[r] === 1 : true;
    flags[k - a] = ok ? 1 : 0;
    if (!ok) continue;
    j++;
    if (values[r]) acc |= 1 << bits;
    if (++bits === 8) {
      buf[pos++] = acc;
      acc = 0;
      bits = 0;
    }
  }
  if (bits > 0) buf[pos++] = acc;
  out.pos = pos;
  return { nulls: b - a - j, encoding: 0 };
}
