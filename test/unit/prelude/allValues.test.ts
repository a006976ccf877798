// A loaded column's every value (t.array(col), the scans and row loops that read a whole column)
// is read in one loop over its arrays, not through the per-row getter: differential against the
// getter, for each kind, with nulls, NaN and -0, in either order (the array first, or the rows
// first: a number column with nulls is boxed once, by whichever comes first).
import { afterEach, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { bool, columnar, dict, f64, utf8 } from './fixture.js';

const N = 3000; // past the 1,024 row reads after which a number column with nulls is boxed
const num = (i: number) => (i % 11 === 0 ? null : i % 13 === 0 ? NaN : i % 17 === 0 ? -0 : i * 1.5 - 700);
const TABLE = columnar('award_data', {
  n: f64(Array.from({ length: N }, (_, i) => num(i))),
  full: f64(Array.from({ length: N }, (_, i) => (i % 7 === 0 ? -0 : i / 3))),
  i: f64(
    Array.from({ length: N }, (_, i) => (i % 5 === 0 ? null : i)),
    'integer',
  ),
  d: f64(
    Array.from({ length: N }, (_, i) =>
      i % 9 === 0 ? null : new Date(Date.UTC(2000, 0, 1 + i)).toISOString().slice(0, 10),
    ),
    'date',
  ),
  k: dict(Array.from({ length: N }, (_, i) => (i % 6 === 0 ? null : ['DOD', 'NASA', 'ü€😀', ''][i % 4]!))),
  b: bool(Array.from({ length: N }, (_, i) => (i % 4 === 0 ? null : i % 3 === 0))),
  s: utf8(Array.from({ length: N }, (_, i) => (i % 8 === 0 ? null : `row ${i} ü`))),
});
const COLUMNS = ['n', 'full', 'i', 'd', 'k', 'b', 's'];

/** Guest code: a value as text that tells -0, NaN, null, a Date's time and the type apart. */
const KEY = `const key = (v) => v === null ? 'null' : v === undefined ? 'undef' : v instanceof Date ? 'D' + v.getTime()
  : typeof v === 'number' ? (Object.is(v, -0) ? '-0' : 'n' + v) : typeof v + ':' + String(v);`;
const BY_ROW = `${KEY}
const byRow = {};
for (const c of ${JSON.stringify(COLUMNS)}) { const out = []; for (let r = 0; r < ${N}; r++) out.push(key(award_data.get(c, r))); byRow[c] = out.join('|'); }`;
const BY_ARRAY = `const byArray = {};
for (const c of ${JSON.stringify(COLUMNS)}) byArray[c] = award_data.array(c).map(key).join('|');`;
const BY_OBJECTS = `const byObjects = {};
for (const c of ${JSON.stringify(COLUMNS)}) { const out = []; for (const r of award_data.select(c).objects()) out.push(key(r[c])); byObjects[c] = out.join('|'); }`;

/** Per column: [name, rows === array, rows === row loop]. */
const SAME = `${JSON.stringify(COLUMNS)}.map((c) => [c, byRow[c] === byArray[c], byRow[c] === byObjects[c]])`;

let h: Harness | undefined;
afterEach(() => h?.dispose());

describe('a column read whole agrees with its per-row reads', () => {
  test('the rows first, then the arrays and a row loop', async () => {
    h = createHarness({ tables: [TABLE] });
    const r = await h.run(`${BY_ROW}\n${BY_ARRAY}\n${BY_OBJECTS}\n${SAME}`);
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual(COLUMNS.map((c) => [c, true, true]));
  });

  test('the arrays first (a fresh session), then the rows; the expected values from the fixture', async () => {
    h = createHarness({ tables: [TABLE] });
    const r = await h.run(`${KEY}\n${BY_ARRAY}\n${BY_OBJECTS}\n${BY_ROW.replace(KEY, '')}\n${SAME}`);
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual(COLUMNS.map((c) => [c, true, true]));
    const byArray = (await h.run(`${KEY}\n${BY_ARRAY}\nbyArray`)).value as Record<string, string>;
    const key = (v: unknown) =>
      v === null ? 'null' : typeof v === 'number' ? (Object.is(v, -0) ? '-0' : `n${v}`) : `${typeof v}:${String(v)}`;
    expect(byArray.n).toBe(Array.from({ length: N }, (_, i) => key(num(i))).join('|'));
    expect(byArray.k!.split('|').slice(0, 7)).toEqual([
      'null',
      'string:NASA',
      'string:ü€😀',
      'string:',
      'string:DOD',
      'string:NASA',
      'null',
    ]);
    expect(byArray.d!.split('|').slice(0, 2)).toEqual(['null', `D${Date.UTC(2000, 0, 2)}`]);
    expect(byArray.b!.split('|').slice(0, 4)).toEqual(['null', 'boolean:false', 'boolean:false', 'boolean:true']);
  });

  test('writes into a handed-out array reach neither the rows nor the next array', async () => {
    h = createHarness({ tables: [TABLE] });
    const r = await h.run(`const a = award_data.array('n'); a[1] = 'changed'; a.fill(0, 2, 50);
const rows = []; for (let i = 0; i < 1100; i++) rows.push(award_data.get('n', i));
const b = award_data.array('n'); b.reverse();
[rows[1], rows[2], award_data.array('n')[1], award_data.array('n')[2], award_data.get('n', 0)]`);
    expect(r.value).toEqual([num(1), num(2), num(1), num(2), num(0)]);
  });
});
