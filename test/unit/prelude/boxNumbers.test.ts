// A number column boxed into a plain array stores an integer in int32 as a small integer (v | 0), which
// must be the same number: differential against the fixture's values, by Object.is (-0, NaN, the int32
// edges, fractions, infinities), for the session's boxed values (t.array(col) with and without nulls:
// data/boxNumbers.ts) and an array chain's array made from the typed values in a fresh session
// (fast/arrayChain.ts `make`).
import { afterEach, describe, expect, test } from 'vitest';
import { boxNumbers } from '../../../prelude/data/boxNumbers.js';
import { createHarness, type Harness } from './harness.js';
import { columnar, f64 } from './fixture.js';

const EDGES = [
  0,
  -0,
  1,
  -1,
  2015,
  149999.99,
  1.5,
  -2.5,
  2 ** 30 - 1,
  2 ** 30,
  -(2 ** 30),
  -(2 ** 30) - 1,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  -(2 ** 53),
  NaN,
  Infinity,
  -Infinity,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  1e-300,
];
const N = 3000; // past the 1,024 row reads after which the row getter boxes a column with nulls
const full = (i: number) => EDGES[i % EDGES.length]!;
const holed = (i: number) => (i % 7 === 0 ? null : EDGES[(i * 5) % EDGES.length]!);
const key = (v: unknown) =>
  v === null ? 'null' : typeof v === 'number' ? (Object.is(v, -0) ? '-0' : `n${v}`) : `${typeof v}:${String(v)}`;
const KEY = `const key = (v) => v === null ? 'null' : typeof v === 'number' ? (Object.is(v, -0) ? '-0' : 'n' + v) : typeof v + ':' + String(v);`;
const expected = (f: (i: number) => number | null) => Array.from({ length: N }, (_, i) => key(f(i))).join('|');

let h: Harness | undefined;
afterEach(() => h?.dispose());

describe('boxNumbers', () => {
  test('every value is the same number (Object.is), null where not valid', () => {
    const values = Float64Array.from(EDGES);
    const valid = Uint8Array.from(EDGES, (_, i) => (i % 3 === 1 ? 0 : 1));
    const withNulls = boxNumbers(values, valid, EDGES.length);
    const whole = boxNumbers(values, null, EDGES.length);
    EDGES.forEach((v, i) => {
      expect(Object.is(whole[i], v)).toBe(true);
      if (valid[i]) expect(Object.is(withNulls[i], v)).toBe(true);
      else expect(withNulls[i]).toBeNull();
    });
  });
});

describe('a number column boxed in a fresh session keeps every value', () => {
  const table = () =>
    columnar('award_data', {
      full: f64(Array.from({ length: N }, (_, i) => full(i))),
      holed: f64(Array.from({ length: N }, (_, i) => holed(i))),
    });

  test('t.array(col), without and with nulls, and the row loop after it', async () => {
    h = createHarness({ tables: [table()] });
    const r = await h.run(`${KEY}
const out = {};
for (const c of ['full', 'holed']) out[c] = award_data.array(c).map(key).join('|');
for (const c of ['full', 'holed']) { const a = []; for (const r of award_data.select(c).objects()) a.push(key(r[c])); out[c + 'Rows'] = a.join('|'); }
out`);
    expect(r.error).toBeUndefined();
    const v = r.value as Record<string, string>;
    expect(v.full).toBe(expected(full));
    expect(v.holed).toBe(expected(holed));
    expect(v.fullRows).toBe(expected(full));
    expect(v.holedRows).toBe(expected(holed));
  });

  test("an array chain's array made from the typed values (no array of the column boxed yet)", async () => {
    h = createHarness({ tables: [table()] });
    const r =
      await h.run(`const a = award_data.array('full').filter((v) => v !== 7), b = award_data.array('holed').filter((v) => v !== 7);
[a.length, b.length]`);
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual([N, N]);
    const keys = await h.run(`${KEY}\n[a.map(key).join('|'), b.map(key).join('|')]`);
    expect(keys.value).toEqual([expected(full), expected(holed)]);
  });
});
