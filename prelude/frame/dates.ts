/**
 * Date helpers, all in UTC so no answer depends on the host's time zone. to_datetime accepts both
 * SBIR date formats (`YYYY-MM-DD`, `M/D/YYYY`), ISO date-times, Dates and epoch milliseconds;
 * anything else becomes null (like pandas errors='coerce'). month and quarter are 1-based (pandas).
 */
import type { ColumnTable } from 'arquero';
import { isNull, isTable, resolveColumn } from './common.js';
import { withColumns } from './withColumns.js';

const ISO =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const US = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const YEAR = /^(\d{4})$/;

function utc(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): Date | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const date = new Date(t);
  return date.getUTCDate() === d ? date : null; // rejects 2/30
}

function parse(s: string): Date | null {
  const v = s.trim();
  if (!v) return null;
  let m = v.match(ISO);
  if (m) {
    const ms = m[7] ? Math.round(Number(`0.${m[7]}`) * 1000) : 0;
    const d = utc(+m[1], +m[2], +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), ms);
    if (!d || !m[8] || m[8].toUpperCase() === 'Z') return d;
    const off = m[8].replace(':', '');
    const mins = (off[0] === '-' ? -1 : 1) * (Number(off.slice(1, 3)) * 60 + Number(off.slice(3, 5)));
    return new Date(d.getTime() - mins * 60000);
  }
  if ((m = v.match(US))) return utc(+m[3], +m[1], +m[2], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  if ((m = v.match(YEAR))) return utc(+m[1], 1, 1);
  return null;
}

/**
 * Converts a value to a UTC Date (null when missing or unparseable). Given a table and a column,
 * returns the table with that column converted; given an array, converts each element.
 * @example to_datetime('3/15/2021') // 2021-03-15T00:00:00.000Z
 * @example to_datetime(award_data, 'Proposal Award Date')
 */
export function to_datetime(x: unknown, col?: unknown): unknown {
  if (isTable(x)) {
    const name = resolveColumn(x, col, 'to_datetime()');
    const c = (x as ColumnTable).column(name)!;
    return withColumns(x, { [name]: (r) => toDate(c.at(r)) });
  }
  if (Array.isArray(x)) return x.map(toDate);
  return toDate(x);
}

function toDate(x: unknown): Date | null {
  if (isNull(x)) return null;
  if (x instanceof Date) return Number.isNaN(x.getTime()) ? null : x;
  // beyond JavaScript's date range (+-8.64e15 ms) a Date is invalid: null, like any unparseable value
  if (typeof x === 'number') return Math.abs(x) <= 8.64e15 ? new Date(x) : null;
  return parse(String(x));
}

const part =
  (f: (d: Date) => number) =>
  (x: unknown): number | null => {
    const d = toDate(x);
    return d === null ? null : f(d);
  };

/** UTC year. @example year('2021-03-15') // 2021 */
export const year = part((d) => d.getUTCFullYear());
/** UTC month, 1-12 (pandas; Arquero's original op.month was 0-based, see docs). @example month('3/15/2021') // 3 */
export const month = part((d) => d.getUTCMonth() + 1);
/** UTC day of the month, 1-31. @example day('2021-03-15') // 15 */
export const day = part((d) => d.getUTCDate());
/** UTC quarter, 1-4. @example quarter('2021-03-15') // 1 */
export const quarter = part((d) => Math.floor(d.getUTCMonth() / 3) + 1);
