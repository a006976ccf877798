/**
 * Date parsing straight from bytes. Accepted: ISO `YYYY-MM-DD` and US `M/D/YYYY` (one or two
 * digit month and day), each optionally followed by a time `[T ]H:MM[:SS[.fff]][Z]` read as UTC.
 * The result is ms since 1970-01-01T00:00:00Z; an impossible date (2/30) is NaN.
 */

const MS_PER_DAY = 86_400_000;

/** Days from 1970-01-01 to the proleptic Gregorian date y-m-d (Howard Hinnant's algorithm). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Reads `n` fixed digits at i; -1 if any is not a digit. */
function digits(buf: Uint8Array, i: number, n: number): number {
  let v = 0;
  for (let k = 0; k < n; k++) {
    const c = buf[i + k] - 0x30;
    if (!(c >= 0 && c <= 9)) return -1; // also rejects undefined past the buffer's end
    v = v * 10 + c;
  }
  return v;
}

/**
 * Parses `buf[s, e)` as a date; NaN when it is not one.
 * @example parseDateBytes(Buffer.from('10/21/2019'), 0, 10) // Date.UTC(2019, 9, 21)
 */
export function parseDateBytes(buf: Uint8Array, start: number, end: number): number {
  let s = start;
  let e = end;
  while (s < e && buf[s] === 0x20) s++;
  while (e > s && buf[e - 1] === 0x20) e--;
  let y: number;
  let m: number;
  let d: number;
  let i: number;
  if (e - s >= 10 && buf[s + 4] === 0x2d && buf[s + 7] === 0x2d) {
    y = digits(buf, s, 4);
    m = digits(buf, s + 5, 2);
    d = digits(buf, s + 8, 2);
    i = s + 10;
  } else {
    const mLen = buf[s + 1] === 0x2f ? 1 : 2;
    if (buf[s + mLen] !== 0x2f) return NaN;
    m = digits(buf, s, mLen);
    const dAt = s + mLen + 1;
    const dLen = buf[dAt + 1] === 0x2f ? 1 : 2;
    if (buf[dAt + dLen] !== 0x2f) return NaN;
    d = digits(buf, dAt, dLen);
    y = digits(buf, dAt + dLen + 1, 4);
    i = dAt + dLen + 5;
    if (i > e) return NaN;
  }
  if (y < 0 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return NaN;
  const time = i === e ? 0 : parseTime(buf, i, e);
  return Number.isNaN(time) ? NaN : daysFromCivil(y, m, d) * MS_PER_DAY + time;
}

/** `[T ]H:MM[:SS[.fff]][Z]` -> ms into the day; NaN if malformed. */
function parseTime(buf: Uint8Array, s: number, e: number): number {
  if (buf[s] !== 0x54 && buf[s] !== 0x20) return NaN;
  let i = s + 1;
  const hLen = buf[i + 1] === 0x3a ? 1 : 2;
  const h = digits(buf, i, hLen);
  i += hLen;
  if (buf[i] !== 0x3a) return NaN;
  const mi = digits(buf, i + 1, 2);
  i += 3;
  let sec = 0;
  let ms = 0;
  if (i < e && buf[i] === 0x3a) {
    sec = digits(buf, i + 1, 2);
    i += 3;
    if (i < e && buf[i] === 0x2e) {
      let scale = 100;
      for (i++; i < e && buf[i] >= 0x30 && buf[i] <= 0x39; i++, scale /= 10) ms += (buf[i] - 0x30) * scale;
      ms = Math.floor(ms);
    }
  }
  if (i < e && buf[i] === 0x5a) i++;
  if (i !== e || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 || i > e) return NaN;
  return ((h * 60 + mi) * 60 + sec) * 1000 + ms;
}
