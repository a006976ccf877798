// The per-row numbers a date loop reads instead of a Date (prelude/fast/dateFeatures.ts) are what the
// Date methods give for each row's time, for times a CSV or Parquet file can hold that rows of Dates
// cannot: NaN (an Invalid Date), -0, fractions of a millisecond, and times just past the range a Date
// holds (its methods answer NaN there).
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
const METHOD = {
  time: Date.prototype.getTime,
  year: Date.prototype.getUTCFullYear,
  month: Date.prototype.getUTCMonth,
  date: Date.prototype.getUTCDate,
  day: Date.prototype.getUTCDay,
} as const;

describe('dateFeatures', () => {
  it('answers what each Date method gives for every row time, null rows NaN', () => {
    const values = Float64Array.from(TIMES);
    const valid = Uint8Array.from(TIMES, (_, i) => (i === 2 ? 0 : 1));
    const features = ['time', 'year', 'month', 'date', 'day'] as const;
    // twice: the second call reads the kept arrays
    for (let k = 0; k < 2; k++) {
      const got = dateFeatures(values, valid, features);
      features.forEach((f, j) => {
        const want = TIMES.map((t, i) => (valid[i] ? METHOD[f].call(new Date(t)) : NaN));
        expect(Array.from(got[j]!), f).toEqual(want);
      });
    }
  });

  it('parses only the lists the preparation writes', () => {
    expect(parseDateFeatures(['year', 'time'])).toEqual(['year', 'time']);
    expect(parseDateFeatures(['hours'])).toBeUndefined();
    expect(parseDateFeatures('year')).toBeUndefined();
    expect(dateMethodsIntact()).toBe(true);
  });
});
