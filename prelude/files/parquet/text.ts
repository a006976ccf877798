/**
 * BYTE_ARRAY (UTF-8) chunks written PLAIN: host UTF-8 copied as bytes, strings encoded straight
 * into the page (writeText), other values (mixed columns, objects) through textOf first.
 */
import type { NullPlan, TextPlan, Utf8Plan } from './plan.js';
import type { Encoded, Scratch } from './scratch.js';
import { textOf } from '../columnsOf.js';
import { writeText } from './writeText.js';

/** Rows [a, b) of values written as text. */
export function encodeText(p: TextPlan, a: number, b: number, s: Scratch): Encoded {
  const { values, at, rows } = p;
  const flags = s.valid;
  const out = s.values;
  let nulls = 0;
  for (let k = a; k < b; k++) {
    const r = rows ? rows[k] : k;
    const v = values ? values[r] : at!(r);
    const t = typeof v === 'string' ? v : textOf(v);
    if (t === null) {
      flags[k - a] = 0;
      nulls++;
      continue;
    }
    flags[k - a] = 1;
    writeText(out, t);
  }
  return { nulls, encoding: 0 };
}

/** Rows [a, b) of a host UTF-8 column, copied byte for byte. */
export function encodeUtf8(p: Utf8Plan, a: number, b: number, s: Scratch): Encoded {
  const { bytes, offsets, valid, rows } = p;
  const flags = s.valid;
  const out = s.values;
  let nulls = 0;
  for (let k = a; k < b; k++) {
    const r = rows ? rows[k] : k;
    if (!valid[r]) {
      flags[k - a] = 0;
      nulls++;
      continue;
    }
    flags[k - a] = 1;
    out.lengthPrefixed(bytes, offsets[r], offsets[r + 1]);
  }
  return { nulls, encoding: 0 };
}

/** Rows [a, b) of a column without values. */
export function encodeNulls(_p: NullPlan, a: number, b: number, s: Scratch): Encoded {
  s.valid.fill(0, 0, b - a);
  return { nulls: b - a, encoding: 0 };
}
