/**
 * `s.dt`: pandas date parts over a Series of dates, all in UTC (month 1-12, quarter 1-4, dayofweek
 * Monday=0). Text and numbers are read with to_datetime first, so a column of date strings works too;
 * missing or unparseable values give missing parts.
 */
import { dateFeatures, type DateFeature } from '../fast/dateFeatures.js';
import { to_datetime } from '../frame/dates.js';
import { chainKeptPart } from './numberChain.js';
import { Series } from './Series.js';
import { typedOf } from './typed.js';

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

/** The integer date parts computed from a date column's epoch milliseconds (no Date per row). */
type Field = 'year' | 'month' | 'day' | 'quarter' | 'dayofweek' | 'dayofyear' | 'hour' | 'minute' | 'second';

const DAY_MS = 86400000;

/**
 * One integer part of every date of a host date column, from its Float64Array of epoch ms: the
 * civil date by arithmetic (H. Hinnant's days-to-civil), the time of day by division. The values
 * the Date methods give: ms truncated as a Date truncates them, a value outside the Date range
 * (or NaN) missing as to_datetime makes it. undefined without a date view.
 */
function fastPart(s: Series, field: Field): Series | undefined {
  const t = typedOf(s);
  if (!t || t.kind !== 'num' || t.type !== 'date') return undefined;
  const { values, valid, rows } = t;
  const n = s.length;
  const getter = KEPT_GETTER[field];
  if (getter !== undefined && valid !== null)
    return keptPart(s, field, dateFeatures(values, valid, [getter])[0]!, rows);
  const out = new Float64Array(n);
  const ok = new Uint8Array(n);
  // the loop ends its own function: code after a loop in the same function deopted the loop's
  // compiled code on every warm call (docs/architecture.md, "Inside the prelude")
  partLoop(values, valid, rows, n, field, out, ok);
  return Series.numbers(out, ok, s, s.name, 'integer');
}

/** Fills `out` with each row's part and `ok` with 1 where the row has one (fastPart). */
function partLoop(
  values: Float64Array,
  valid: Uint8Array | null,
  rows: Uint32Array | null,
  n: number,
  field: Field,
  out: Float64Array,
  ok: Uint8Array,
): void {
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i]! : i;
    const x = values[r]!;
    if ((valid !== null && valid[r] === 0) || !(Math.abs(x) <= 8.64e15)) continue;
    const ms = Math.trunc(x) + 0;
    const days = Math.floor(ms / DAY_MS);
    const inDay = ms - days * DAY_MS;
    let v: number;
    if (field === 'hour') v = Math.floor(inDay / 3600000);
    else if (field === 'minute') v = Math.floor(inDay / 60000) % 60;
    else if (field === 'second') v = Math.floor(inDay / 1000) % 60;
    else if (field === 'dayofweek') v = (((days + 3) % 7) + 7) % 7;
    else {
      const z = days + 719468;
      const era = Math.floor(z / 146097);
      const doe = z - era * 146097;
      const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
      const dy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
      const mp = Math.floor((5 * dy + 2) / 153);
      const month = mp < 10 ? mp + 3 : mp - 9;
      const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
      if (field === 'year') v = year;
      else if (field === 'month') v = month;
      else if (field === 'quarter') v = Math.floor((month - 1) / 3) + 1;
      else if (field === 'day') v = dy - Math.floor((153 * mp + 2) / 5) + 1;
      else v = Math.floor((ms - Date.UTC(year, 0, 1)) / DAY_MS) + 1; // dayofyear, as doy() computes it
    }
    out[i] = v;
    ok[i] = 1;
  }
}

/**
 * The UTC getter whose per-row answers the session keeps for a date column (fast/dateFeatures.ts:
 * the loops over a date column read the same arrays), for the parts that follow from one getter.
 */
const KEPT_GETTER: Partial<Record<Field, DateFeature>> = {
  year: 'getUTCFullYear',
  month: 'getUTCMonth',
  quarter: 'getUTCMonth',
  day: 'getUTCDate',
  dayofweek: 'getUTCDay',
  hour: 'getUTCHours',
  minute: 'getUTCMinutes',
  second: 'getUTCSeconds',
};

/**
 * A part from the session's kept answers of its getter (`got`: one number per row of the column, NaN
 * for a null or out-of-range time: a missing part, as fastPart's arithmetic makes it). The Date
 * methods the prelude captured at load answer them, so a run's replaced getter changes nothing here.
 */
function keptPart(s: Series, field: Field, got: Float64Array, rows: Uint32Array | null): Series {
  // the part from its getter's answer, as a pending chain over the kept answers (numberChain.ts)
  const part =
    field === 'month' ? 'month' : field === 'quarter' ? 'quarter' : field === 'dayofweek' ? 'weekday' : 'as is';
  return chainKeptPart(got, rows, part, s);
}

function intPart(s: Series, field: Field, f: (d: Date) => number): Series {
  return fastPart(s, field) ?? part(s, f);
}

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
    return intPart(this.s, 'year', (d) => d.getUTCFullYear());
  }
  get month() {
    return intPart(this.s, 'month', (d) => d.getUTCMonth() + 1);
  }
  get day() {
    return intPart(this.s, 'day', (d) => d.getUTCDate());
  }
  get quarter() {
    return intPart(this.s, 'quarter', (d) => Math.floor(d.getUTCMonth() / 3) + 1);
  }
  get dayofweek() {
    return intPart(this.s, 'dayofweek', dow);
  }
  get weekday() {
    return intPart(this.s, 'dayofweek', dow);
  }
  get day_of_week() {
    return intPart(this.s, 'dayofweek', dow);
  }
  get dayofyear() {
    return intPart(this.s, 'dayofyear', doy);
  }
  get day_of_year() {
    return intPart(this.s, 'dayofyear', doy);
  }
  get hour() {
    return intPart(this.s, 'hour', (d) => d.getUTCHours());
  }
  get minute() {
    return intPart(this.s, 'minute', (d) => d.getUTCMinutes());
  }
  get second() {
    return intPart(this.s, 'second', (d) => d.getUTCSeconds());
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
