import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDateBytes } from '../../../src/data/ingest/parseDate.js';
import { parseNumberBytes } from '../../../src/data/ingest/parseNumber.js';

const num = (s: string, money = true) => parseNumberBytes(Buffer.from(s), 0, Buffer.byteLength(s), money);
const date = (s: string) => parseDateBytes(Buffer.from(s), 0, Buffer.byteLength(s));

describe('parseNumberBytes', () => {
  it('reads money the way the SBIR files write it', () => {
    expect(num('1233655.0000')).toBe(1233655);
    expect(num('171,433')).toBe(171433);
    expect(num('$1,880,681.50')).toBe(1880681.5);
    expect(num(' 42 ')).toBe(42);
    expect(num('-$5')).toBe(-5);
    expect(num('0')).toBe(0);
    expect(num('2019.0')).toBe(2019);
  });

  it('returns NaN for anything that is not a number', () => {
    for (const s of ['', 'N/A', '1.2.3', '12abc', '$', '-', '1e', ',12', '0x10', 'Infinity']) expect(num(s)).toBeNaN();
  });

  it('rejects leading zeros and money syntax in strict mode (type inference)', () => {
    expect(num('0123', false)).toBeNaN();
    expect(num('1,234', false)).toBeNaN();
    expect(num('0.5', false)).toBe(0.5);
    expect(num('-12.5e3', false)).toBe(-12500);
  });

  it('agrees with Number() on every finite double (shortest round-trip text)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) =>
        Object.is(num(String(x), false), Number(String(x))),
      ),
    );
  });

  it('agrees with Number() on decimal strings', () => {
    const decimal = fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.nat({ max: 25 })).map(([m, k]) => {
      const s = m.toString().padStart(k + 1, '0');
      return k === 0 ? s : `${s.slice(0, -k)}.${s.slice(-k)}`;
    });
    fc.assert(fc.property(decimal, (s) => num(s) === Number(s)));
  });
});

describe('parseDateBytes', () => {
  it('reads ISO and M/D/YYYY dates as UTC midnight', () => {
    expect(date('2026-08-28')).toBe(Date.UTC(2026, 7, 28));
    expect(date('10/21/2019')).toBe(Date.UTC(2019, 9, 21));
    expect(date('5/7/2024')).toBe(Date.UTC(2024, 4, 7));
    expect(date('1905-01-01')).toBe(Date.UTC(1905, 0, 1));
    expect(date('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(date('2019-10-21 13:45:10')).toBe(Date.UTC(2019, 9, 21, 13, 45, 10));
    expect(date('2019-10-21T00:00:00Z')).toBe(Date.UTC(2019, 9, 21));
  });

  it('returns NaN for impossible or malformed dates', () => {
    for (const s of ['2023-02-29', '13/1/2020', '2/30/2020', '2020-1-5', '1/2/20', 'N/A', '2020-01-01x', ''])
      expect(date(s)).toBeNaN();
  });

  it('matches Date.UTC for every day from year 1 to 9999', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 28 }),
        (y, m, d) => {
          const expected = new Date(0).setUTCFullYear(y, m - 1, d);
          return (
            date(`${m}/${d}/${String(y).padStart(4, '0')}`) === expected &&
            date(`${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`) ===
              expected
          );
        },
      ),
    );
  });
});
