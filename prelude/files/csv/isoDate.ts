/**
 * A UTC instant as ISO-8601 text (`Date.prototype.toISOString`'s exact format) written as ASCII
 * bytes without a Date or a string per value: the civil date from the day number (H. Hinnant's
 * days-to-civil), then fixed-width digits. Years outside 0000-9999 (written with a sign and six
 * digits) go through toISOString.
 */
import type { ByteSink } from '../parquet/byteSink.js';
import { writeUtf8 } from '../parquet/writeText.js';

const DAY = 86_400_000;

function digits(b: Uint8Array, at: number, v: number, width: number): void {
  for (let i = at + width - 1; i >= at; i--) {
    const q = (v / 10) | 0;
    b[i] = 48 + v - q * 10;
    v = q;
  }
}

/** Appends the ISO-8601 text of `ms` (a whole number of ms since 1970, within Date's range). */
export function writeIsoDate(out: ByteSink, ms: number): void {
  const days = Math.floor(ms / DAY);
  let rest = ms - days * DAY;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  // from here every quantity is a small non-negative integer: `| 0` is floor
  const doe = z - era * 146_097;
  const yoe = ((doe - ((doe / 1460) | 0) + ((doe / 36_524) | 0) - ((doe / 146_096) | 0)) / 365) | 0;
  const doy = doe - (365 * yoe + ((yoe / 4) | 0) - ((yoe / 100) | 0));
  const mp = ((5 * doy + 2) / 153) | 0;
  const d = doy - (((153 * mp + 2) / 5) | 0) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  if (y < 0 || y > 9999) {
    writeUtf8(out, new Date(ms).toISOString());
    return;
  }
  out.ensure(24);
  const b = out.buf;
  const p = out.pos;
  digits(b, p, y, 4);
  b[p + 4] = 45; // -
  digits(b, p + 5, m, 2);
  b[p + 7] = 45;
  digits(b, p + 8, d, 2);
  b[p + 10] = 84; // T
  const h = (rest / 3_600_000) | 0;
  rest -= h * 3_600_000;
  const min = (rest / 60_000) | 0;
  rest -= min * 60_000;
  const s = (rest / 1000) | 0;
  digits(b, p + 11, h, 2);
  b[p + 13] = 58; // :
  digits(b, p + 14, min, 2);
  b[p + 16] = 58;
  digits(b, p + 17, s, 2);
  b[p + 19] = 46; // .
  digits(b, p + 20, rest - s * 1000, 3);
  b[p + 23] = 90; // Z
  out.pos = p + 24;
}
