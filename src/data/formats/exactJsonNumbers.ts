/** A number literal that a double would change: its digits say more than any float64 can hold. */
const MAYBE_INEXACT = /\d{16}|[eE][+-]?\d{3}/;

/**
 * JSON text with every number literal that JSON.parse would change silently turned into a JSON
 * string of the literal's exact text: integers beyond ±(2^53 - 1) (`123456789012345678901234567890`
 * would round), numbers out of double range (`1e400` -> Infinity, then null) and non-zero numbers
 * that underflow to 0 (`1e-400`). Every other literal, and all text inside strings, is left as it
 * is, so JSON.parse of the result gives exactly the values of the original, those numbers as text.
 * A text with no run of 16 digits and no 3-digit exponent is returned unchanged without a scan.
 * Malformed JSON is returned for JSON.parse to report (its error positions may then shift).
 * @example exactNumbersAsText('{"id": 123456789012345678901}') // '{"id": "123456789012345678901"}'
 */
export function exactNumbersAsText(text: string): string {
  if (!MAYBE_INEXACT.test(text)) return text;
  let out = '';
  let from = 0;
  const n = text.length;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // skip a string, escapes included
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i += 2;
        else if (d === 0x22) break;
        else i++;
      }
      i++;
      continue;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
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
