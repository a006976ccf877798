/**
 * Number parsing straight from UTF-8 bytes, without creating a string per cell.
 * Up to 15 significant digits and |exponent| <= 22 take the exact fast path (one correctly
 * rounded multiply or divide, Clinger's method); anything longer falls back to `Number()`.
 */

const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

const SPACE = 0x20;
const TAB = 0x09;
const PLUS = 0x2b;
const MINUS = 0x2d;
const DOT = 0x2e;
const COMMA = 0x2c;
const DOLLAR = 0x24;
const ZERO = 0x30;

/** Trims ASCII spaces and tabs; returns [start, end]. */
function trim(buf: Uint8Array, s: number, e: number): [number, number] {
  while (s < e && (buf[s] === SPACE || buf[s] === TAB)) s++;
  while (e > s && (buf[e - 1] === SPACE || buf[e - 1] === TAB)) e--;
  return [s, e];
}

/**
 * Parses `buf[s, e)` as a decimal number; NaN when it is not one.
 * `money`: also accepts `$` and thousands commas (`"$1,233,655.00"`).
 * Otherwise the syntax is strict and a leading zero (`0123`) is rejected, so zero-padded
 * identifiers stay strings during type inference.
 * @example parseNumberBytes(Buffer.from('"171,433"'), 1, 8, true) // 171433
 */
export function parseNumberBytes(buf: Uint8Array, start: number, end: number, money: boolean): number {
  const [s, e] = trim(buf, start, end);
  let i = s;
  let neg = false;
  if (money && buf[i] === DOLLAR) i++;
  if (buf[i] === MINUS || buf[i] === PLUS) neg = buf[i++] === MINUS;
  if (money && buf[i] === DOLLAR) i++;
  let m = 0;
  let sig = 0;
  let scale = 0;
  let digits = 0;
  const intStart = i;
  for (; i < e; i++) {
    const c = buf[i];
    if (c >= ZERO && c <= ZERO + 9) {
      digits++;
      if (sig > 0 || c !== ZERO) sig++;
      m = m * 10 + (c - ZERO);
    } else if (!(money && c === COMMA && i > intStart)) break;
  }
  if (!money && i - intStart > 1 && buf[intStart] === ZERO) return NaN;
  if (i < e && buf[i] === DOT) {
    for (i++; i < e; i++) {
      const c = buf[i];
      if (c < ZERO || c > ZERO + 9) break;
      digits++;
      if (sig > 0 || c !== ZERO) sig++;
      m = m * 10 + (c - ZERO);
      scale--;
    }
  }
  if (digits === 0) return NaN;
  if (i < e && (buf[i] === 0x65 || buf[i] === 0x45)) {
    i++;
    let eneg = false;
    if (buf[i] === MINUS || buf[i] === PLUS) eneg = buf[i++] === MINUS;
    let x = 0;
    const expStart = i;
    for (; i < e && buf[i] >= ZERO && buf[i] <= ZERO + 9; i++) x = Math.min(x * 10 + (buf[i] - ZERO), 1e6);
    if (i === expStart) return NaN;
    scale += eneg ? -x : x;
  }
  if (i !== e) return NaN;
  let v: number;
  if (sig <= 15 && scale >= -22 && scale <= 22) v = scale >= 0 ? m * POW10[scale] : m / POW10[-scale];
  else v = slow(buf, s, e);
  return neg ? -v : v;
}

/** Exact parse for long mantissas or big exponents: build the ASCII text once and use Number(). */
function slow(buf: Uint8Array, s: number, e: number): number {
  let text = '';
  for (let i = s; i < e; i++) {
    const c = buf[i];
    if (c !== COMMA && c !== DOLLAR && c !== MINUS && c !== PLUS) text += String.fromCharCode(c);
    else if ((c === MINUS || c === PLUS) && i > s && (buf[i - 1] === 0x65 || buf[i - 1] === 0x45))
      text += String.fromCharCode(c);
  }
  return Number(text);
}
