/**
 * `s.dt`: pandas date parts over a Series of dates, all in UTC (month 1-12, quarter 1-4, dayofweek
 * Monday=0). Text and numbers are read with to_datetime first, so a column of date strings works too;
 * missing or unparseable values give missing parts.
 */
import { to_datetime } from '../frame/dates.js';
import type { Series } from './Series.js';

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const p2 = (n: number) => String(n).padStart(2, '0');

function part(
  s: Series,
  f: (d: Date) => unknown,
  dtype: 'integer' | 'string' | 'date' | 'boolean' = 'integer',
): Series {
  return s.mapValues(
    (v) => {
      const d = to_datetime(v) as Date | null;
      return d === null ? null : f(d);
    },
    s.name,
    dtype,
  );
}

const dow = (d: Date) => (d.getUTCDay() + 6) % 7;
const doy = (d: Date) => Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400000) + 1;

function strftime(d: Date, fmt: string): string {
  return fmt.replace(
    /%([YmdHMSjbBaAyq%])/g,
    (_, c: string) =>
      ({
        Y: String(d.getUTCFullYear()),
        m: p2(d.getUTCMonth() + 1),
        d: p2(d.getUTCDate()),
        H: p2(d.getUTCHours()),
        M: p2(d.getUTCMinutes()),
        S: p2(d.getUTCSeconds()),
        j: String(doy(d)).padStart(3, '0'),
        b: MONTHS[d.getUTCMonth()].slice(0, 3),
        B: MONTHS[d.getUTCMonth()],
        a: DAYS[dow(d)].slice(0, 3),
        A: DAYS[dow(d)],
        y: p2(d.getUTCFullYear() % 100),
        q: String(Math.floor(d.getUTCMonth() / 3) + 1),
        '%': '%',
      })[c]!,
  );
}

/** The `.dt` accessor of one Series. */
export class DateMethods {
  constructor(private readonly s: Series) {}
  get year() {
    return part(this.s, (d) => d.getUTCFullYear());
  }
  get month() {
    return part(this.s, (d) => d.getUTCMonth() + 1);
  }
  get day() {
    return part(this.s, (d) => d.getUTCDate());
  }
  get quarter() {
    return part(this.s, (d) => Math.floor(d.getUTCMonth() / 3) + 1);
  }
  get dayofweek() {
    return part(this.s, dow);
  }
  get weekday() {
    return part(this.s, dow);
  }
  get day_of_week() {
    return part(this.s, dow);
  }
  get dayofyear() {
    return part(this.s, doy);
  }
  get day_of_year() {
    return part(this.s, doy);
  }
  get hour() {
    return part(this.s, (d) => d.getUTCHours());
  }
  get minute() {
    return part(this.s, (d) => d.getUTCMinutes());
  }
  get second() {
    return part(this.s, (d) => d.getUTCSeconds());
  }
  /** The date at UTC midnight. */
  get date() {
    return part(this.s, (d) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())), 'date');
  }
  get is_month_start() {
    return part(this.s, (d) => d.getUTCDate() === 1, 'boolean');
  }
  month_name() {
    return part(this.s, (d) => MONTHS[d.getUTCMonth()], 'string');
  }
  day_name() {
    return part(this.s, (d) => DAYS[dow(d)], 'string');
  }
  /** Formats with %Y %m %d %H %M %S %j %b %B %a %A %y %%. */
  strftime(fmt: unknown) {
    return part(this.s, (d) => strftime(d, String(fmt)), 'string');
  }
  /** Period-like labels: to_period('M') -> 'YYYY-MM', 'Q' -> 'YYYYQn', 'Y' -> 'YYYY'. */
  to_period(freq: unknown) {
    const f = String(freq).toUpperCase()[0];
    return part(
      this.s,
      (d) =>
        f === 'M'
          ? strftime(d, '%Y-%m')
          : f === 'Q'
            ? strftime(d, '%YQ%q')
            : f === 'D'
              ? strftime(d, '%Y-%m-%d')
              : strftime(d, '%Y'),
      'string',
    );
  }
}
