/**
 * A cell's text that its parsed value gives back exactly: an inferred column (inferBuilder.ts) keeps
 * no text for such a cell while the column may still be typed, and writes it again from the value
 * only when the column turns out to be text. Each test is on the bytes alone, cheap beside the parse.
 */

const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

/** Most digits of a number whose text comes back from its value (the exact parse and `String`). */
const MAX_DIGITS = 15;

/** Most zeros after `0.` before the first other digit: `String` writes 1e-7 and below as exponents. */
const MAX_LEADING_ZEROS = 5;

/**
 * Whether `String(parseNumberBytes(buf, s, e, false))` is exactly `buf[s, e)`: an optional `-`, an
 * integer part without a leading zero, an optional fraction not ending in `0`, 15 digits at most,
 * no exponent, spaces or `+`, not `-0`, not below 1e-6. Up to 15 digits the parse is exact (one
 * correctly rounded operation) and no other decimal of 15 digits or fewer reads as the same double,
 * so the shortest text `String` writes for it is this one.
 * @example canonicalNumber(Buffer.from('65631.46'), 0, 8) // true; '1.50', '007', '1e3' are false
 */
export function canonicalNumber(buf: Uint8Array, s: number, e: number): boolean {
  let i = s;
  if (buf[i] === MINUS) i++;
  const intStart = i;
  while (i < e && buf[i] >= ZERO && buf[i] <= NINE) i++;
  const intLen = i - intStart;
  if (intLen === 0 || (intLen > 1 && buf[intStart] === ZERO)) return false;
  if (i === e) return intLen <= MAX_DIGITS && !(buf[s] === MINUS && buf[intStart] === ZERO);
  if (buf[i] !== DOT) return false;
  const fracStart = ++i;
  while (i < e && buf[i] >= ZERO && buf[i] <= NINE) i++;
  if (i !== e || i === fracStart || buf[e - 1] === ZERO || intLen + (e - fracStart) > MAX_DIGITS) return false;
  if (buf[intStart] !== ZERO) return true;
  let z = fracStart;
  while (buf[z] === ZERO) z++;
  return z - fracStart <= MAX_LEADING_ZEROS;
}

/**
 * Whether `buf[s, e)` is a date written `YYYY-MM-DD` and nothing else (the caller has parsed it as a
 * date): {@link dateText} of its value gives it back.
 */
export function canonicalDate(buf: Uint8Array, s: number, e: number): boolean {
  return e - s === 10 && buf[s + 4] === MINUS && buf[s + 7] === MINUS;
}

/** `YYYY-MM-DD` of a date's ms since the epoch (a whole day, year 0 to 9999). */
export function dateText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Whether `buf[s, e)` is `true` or `false` in lower case (the caller has parsed it as a boolean):
 * {@link boolText} gives it back.
 */
export function canonicalBool(buf: Uint8Array, s: number, e: number): boolean {
  const text = buf[s] === 0x74 ? TRUE : FALSE;
  if (e - s !== text.length) return false;
  for (let k = 0; k < text.length; k++) if (buf[s + k] !== text[k]) return false;
  return true;
}

const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];

/** `true` or `false`. */
export function boolText(v: number): string {
  return v === 1 ? 'true' : 'false';
}
