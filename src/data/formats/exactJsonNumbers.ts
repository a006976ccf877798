import { DataError } from '../errors.js';

/** A number literal that a double would change: its digits say more than any float64 can hold. */
const MAYBE_INEXACT = /\d{16}|[eE][+-]?\d{3}/;
/** Brackets anywhere: when the text has no more than the depth cap, no scan for depth is needed. */
const BRACKETS = /[[{]/g;

/**
 * JSON text with every number literal that JSON.parse would change silently turned into a JSON
 * string of the literal's exact text: integers beyond ±(2^53 - 1) (`123456789012345678901234567890`
 * would round), numbers out of double range (`1e400` -> Infinity, then null) and non-zero numbers
 * that underflow to 0 (`1e-400`). Every other literal, and all text inside strings, is left as it
 * is, so JSON.parse of the result gives exactly the values of the original, those numbers as text.
 * A text with no run of 16 digits and no 3-digit exponent is returned unchanged without a scan.
 * With `maxDepth`, nesting deeper than that (brackets outside strings) is DATA_UNSUPPORTED.
 * Malformed JSON is returned for JSON.parse to report (its error positions may then shift).
 * @example exactNumbersAsText('{"id": 123456789012345678901}') // '{"id": "123456789012345678901"}'
 */
export function exactNumbersAsText(text: string, maxDepth = Infinity, file = 'the JSON'): string {
  const numbers = MAYBE_INEXACT.test(text);
  if (!numbers && !(maxDepth < Infinity && deeperThan(text, maxDepth))) return text;
  let out = '';
  let from = 0;
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n;) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) {
        throw new DataError(
          'DATA_UNSUPPORTED',
          `${file}: arrays and objects nest more than ${maxDepth} levels deep (at character ${i})`,
          { hint: 'Flatten the nested values into columns before loading the file.' },
        );
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
    if (c === 0x22) {
      // skip a string: to the next quote not escaped by an odd run of backslashes
      for (i++; ;) {
        const q = text.indexOf('"', i);
        if (q < 0) return from === 0 ? text : out + text.slice(from); // unterminated: JSON.parse reports it
        let slashes = 0;
        while (text.charCodeAt(q - 1 - slashes) === 0x5c) slashes++;
        i = q + 1;
        if (slashes % 2 === 0) break;
      }
      continue;
    }
    if (numbers && (c === 0x2d || (c >= 0x30 && c <= 0x39))) {
      const start = i;
      i++;
      while (i < n && isNumberChar(text.charCodeAt(i))) i++;
      const literal = text.slice(start, i);
      if (inexact(literal)) {
        out += `${text.slice(from, start)}"${literal}"`;
        from = i;
      }
      continue;
    }
    i++;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Whether the text could nest deeper than `max`: it has more than `max` opening brackets at all. */
function deeperThan(text: string, max: number): boolean {
  BRACKETS.lastIndex = 0;
  let count = 0;
  while (BRACKETS.exec(text)) if (++count > max) return true;
  return false;
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

/** True when Number(literal) is not the literal's value: too large, too small, or an unsafe integer. */
function inexact(literal: string): boolean {
  if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(literal)) return false; // not JSON: JSON.parse says so
  const v = Number(literal);
  if (!Number.isFinite(v)) return true;
  const mantissa = literal.replace(/[eE].*$/, '');
  if (v === 0 && /[1-9]/.test(mantissa)) return true;
  // an integer literal (or one whose fraction is all zeros) beyond 2^53 would round
  if (!/[eE]/.test(literal) && /^-?\d+(\.0*)?$/.test(literal) && !Number.isSafeInteger(v)) return true;
  return false;
}
