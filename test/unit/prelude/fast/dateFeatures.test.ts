// The per-row numbers a date loop reads instead of a Date (prelude/fast/dateFeatures.ts) are what the
// Date methods give for each row's time, for times a CSV or Parquet file can hold that rows of Dates
// cannot: NaN (an Invalid Date), -0, fractions of a millisecond, and times just past the range a Date
// holds (its methods answer NaN there); the local-time getters in the zone of the moment (a host
// may change its zone between runs: those answers are not kept).
import { describe, expect, it } from 'vitest';
import { dateFeatures, dateMethodsIntact, parseDateFeatures } from '../../../../prelude/fast/dateFeatures.js';

const TIMES = [
  NaN,
  -0,
  0,
  0.5,
  -0.5,
  1.9,
  -1,
  8.64e15,
  8.64e15 + 1,
  -8.64e15,
  -8.64e15 - 1,
  Infinity,
  1.6e12,
  1.6e12,
  NaN,
];
const FEATURES = [
  'getTime',
  'getUTCFullYear',
  'getUTCMonth',
  'getUTCDate',
  'getUTCDay',
  'getUTCHours',
  'getUTCMilliseconds',
  'getFullYear',
  'getMonth',
  'getDate',
  'getDay',
  'getHours',
  'getMinutes',
  'getTimezoneOffset',
] as const;

describe('dateFeatures', () => {
  it('answers what each Date method gives for every row time, null rows NaN', () => {
    const values = Float64Array.from(TIMES);
    const valid = Uint8Array.from(TIMES, (_, i) => (i === 2 ? 0 : 1));
    const features = FEATURES;
    const zone = process.env.TZ;
    try {
      // again in other zones: the second call reads the kept zone-free arrays
      for (const tz of ['UTC', 'America/New_York', 'Asia/Kolkata']) {
        process.env.TZ = tz;
        const got = dateFeatures(values, valid, features);
        features.forEach((f, j) => {
          const want = TIMES.map((t, i) => (valid[i] ? (Date.prototype[f] as () => number).call(new Date(t)) : NaN));
          expect(Array.from(got[j]!), `${f} in ${tz}`).toEqual(want);
        });
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('parses only the lists the preparation writes', () => {
    expect(parseDateFeatures(['getUTCFullYear', 'getTime'])).toEqual(['getUTCFullYear', 'getTime']);
    expect(parseDateFeatures(['valueOf'])).toBeUndefined();
    expect(parseDateFeatures(['toString'])).toBeUndefined();
    expect(parseDateFeatures('getTime')).toBeUndefined();
    expect(dateMethodsIntact()).toBe(true);
  });
});
