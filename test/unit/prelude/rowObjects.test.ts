// t.objects(), a plain table's t.tolist() and `for (const r of t)` go through the session's row
// cache (prelude/data/rowCache.ts). Every answer is checked against the per-row path (t.get(col, i),
// which reads column.at(row) through the table's filter and order), on award_data's dictionary,
// number, date and long-text columns (nulls, NaN, unicode), filtered, ordered, sliced and derived
// tables; every call gets rows of its own, so a change never reaches another call.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { AWARDS, columnar, dict, f64, utf8 } from './fixture.js';

let h: Harness;
beforeAll(() => {
  h = createHarness({ tables: [AWARDS], textPages: true, memoryLimitMb: 256 });
});
afterAll(() => h.dispose());

// In the guest: `same(t, rows, cols)` checks rows against t.get(c, i), key order and Object.is
// (Dates by time); `rowsOf(t)` is the reference row list built from t.get.
const HELPERS = `
var eq = (a, b) => Object.is(a, b) || (a instanceof Date && b instanceof Date && a.getTime() === b.getTime());
var same = (t, rows, cols = t.columnNames(), off = 0) => {
  if (!Array.isArray(rows)) return 'not an array';
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (JSON.stringify(Object.keys(r)) !== JSON.stringify(cols)) return 'keys of row ' + i + ': ' + Object.keys(r);
    for (const c of cols) if (!eq(r[c], t.get(c, off + i))) return 'row ' + i + ' ' + c + ': ' + r[c] + ' vs ' + t.get(c, off + i);
  }
  return rows.length;
};
var sameLists = (t, rows) => {
  const cols = t.columnNames();
  for (let i = 0; i < rows.length; i++) {
    if (!Array.isArray(rows[i]) || rows[i].length !== cols.length) return 'shape of row ' + i;
    for (let k = 0; k < cols.length; k++) if (!eq(rows[i][k], t.get(cols[k], i))) return 'row ' + i + ' ' + cols[k];
  }
  return rows.length;
};
'ok'`;

const TABLES: Array<[string, number]> = [
  ['award_data', 8],
  ["award_data.select('Agency', 'Award Amount', 'Proposal Award Date')", 8],
  ["award_data.filter(d => d['Award Amount'] > 100000)", 5],
  ["award_data.orderby(aq.desc('Award Amount'), 'Agency')", 8],
  ["award_data.filter(d => d.Agency !== 'NSF').orderby('Award Title')", 6],
  ["award_data.select('Abstract', 'Agency').slice(2, 6)", 4],
  ["award_data.groupby('Agency').filter(d => d['Award Year'] > 2019)", 6],
  ["award_data.filter(d => d['Award Year'] > 3000)", 0],
  ["award_data.derive({ k: d => d['Award Amount'] / 0, t: d => op.upper(d.Agency) }).select('k', 't', 'Agency')", 8],
  ["aq.table({ a: [1, NaN, null, undefined, -0], b: ['x', 'y', null, 'ü😀', ''] })", 5],
];

beforeAll(async () => {
  expect((await h.run(HELPERS)).value).toBe('ok');
});

describe('objects() gives the per-row path values', () => {
  test.each(TABLES)('%s', async (t, rows) => {
    // twice in a run and again in a second run: the built rows, then the reused ones
    for (let pass = 0; pass < 2; pass++) {
      const r = await h.run(`{ const t = ${t}; [same(t, t.objects()), same(t, t.objects())] }`);
      expect(r.value, r.error?.message).toEqual([rows, rows]);
    }
  });

  test('limit, offset and columns', async () => {
    const r = await h.run(`{
      const t = award_data.orderby('Award Year');
      [same(t, t.objects({ limit: 3 })), same(t, t.objects({ offset: 5 }), t.columnNames(), 5),
       same(t, t.objects({ offset: 2, limit: 2 }), t.columnNames(), 2), t.objects({ offset: 20 }).length,
       same(t, t.objects({ columns: ['Award Year', 'Agency'] }), ['Award Year', 'Agency']),
       same(t, t.objects({ columns: 'Abstract' }), ['Abstract']), t.objects({ limit: 0 }).length,
       same(t, t.objects({ limit: Infinity })), same(t, t.objects({ columns: aq.not('Abstract') }), t.columnNames().filter(c => c !== 'Abstract'))]
    }`);
    expect(r.value, r.error?.message).toEqual([3, 3, 2, 0, 8, 8, 0, 8, 8]);
  });

  test('grouped output and odd options keep Arquero behaviour', async () => {
    const r = await h.run(`{
      const g = award_data.select('Agency', 'Award Year').groupby('Agency');
      const nested = g.objects({ grouped: true });
      [nested instanceof Map, nested.get('DOD').length, g.objects().length, award_data.objects({ limit: null }).length]
    }`);
    expect(r.value, r.error?.message).toEqual([true, 3, 8, 0]);
  });

  test('two calls never share a row (a change to the rows of one call stays there)', async () => {
    const r = await h.run(`{
      const t = award_data.select('Agency', 'Award Amount');
      const a = t.objects(), b = award_data.select('Agency', 'Award Amount').objects();
      const p2 = award_data.filter(d => d.Phase === 'Phase II').select('Agency', 'Award Amount').objects();
      a[1].Agency = 'changed after both calls';
      [a !== b, a[0] !== b[0], p2.some(o => o.Agency === 'changed after both calls'), b[1].Agency !== 'changed after both calls']
    }`);
    expect(r.value, r.error?.message).toEqual([true, true, false, true]);
  });
});

describe('changes to handed-out rows never reach a later call', () => {
  const vandal = `
    for (const r of rows) { r['Award Amount'] = -1; r.extra = 1; }
    rows[1].Agency = 'X'; delete rows[2].Phase; rows.sort((a, b) => 0).reverse(); rows.length = 3;
    Object.defineProperty(rows[0], 'Agency', { enumerable: false });
    Object.freeze(rows[1]);
    rows[2]['Proposal Award Date'] = new Date(0);`;

  test('in the same run and in the next run', async () => {
    const r = await h.run(
      `var rows = award_data.objects(); ${vandal}
       const again = award_data.objects();
       [same(award_data, again), Object.isFrozen(again[1]), again.some(o => 'extra' in o)]`,
    );
    expect(r.value, r.error?.message).toEqual([8, false, false]);
    const next = await h.run(
      `[same(award_data, award_data.objects()), same(award_data.select('Agency', 'Phase'), award_data.select('Agency', 'Phase').objects())]`,
    );
    expect(next.value).toEqual([8, 8]);
  });

  test.each([
    'rows[3].extra = 1',
    'Object.assign(rows[3], { more: 2 })',
    'delete rows[3].Phase',
    "rows[3].Agency = 'changed'",
    "rows[3]['Award Amount'] = NaN",
    "Object.defineProperty(rows[3], 'Agency', { enumerable: false })",
    'Object.freeze(rows[3])',
    'Object.preventExtensions(rows[3])',
    "rows[3].Abstract = rows[3].Abstract + ''",
  ])('one change alone: %s', async (change) => {
    const cols = "'Agency', 'Phase', 'Award Amount', 'Abstract'";
    const r = await h.run(`{ const t = award_data.select(${cols}); const rows = t.objects(); ${change};
      const again = award_data.select(${cols}).objects();
      [same(t, again), again[3] !== rows[3], Object.isExtensible(again[3]), again[2] !== rows[2]] }`);
    expect(r.value, r.error?.message).toEqual([8, true, true, true]);
    const next = await h.run(`{ const t = award_data.select(${cols}); same(t, t.objects()) }`);
    expect(next.value).toBe(8);
  });

  test('Object.freeze, seal and preventExtensions are the builtins', async () => {
    const r = await h.run(`{
      const a = { x: 1 }, b = { y: 2 }, c = { z: 3 }, d = {};
      [Object.freeze(a) === a, Object.isFrozen(a), Object.seal(b) === b, Object.isSealed(b),
       Object.preventExtensions(c) === c, Object.isExtensible(c), Reflect.preventExtensions(d), Object.isExtensible(d),
       Object.freeze.name, Object.freeze.length, Object.seal.name, Reflect.preventExtensions.name, Object.freeze(5),
       (() => { try { new Object.freeze({}); return 'constructed' } catch (e) { return e.name } })(),
       (() => { try { Reflect.preventExtensions(1); return 'no error' } catch (e) { return e.name } })()]
    }`);
    expect(r.value, r.error?.message).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      true,
      false,
      'freeze',
      1,
      'seal',
      'preventExtensions',
      5,
      'TypeError',
      'TypeError',
    ]);
  });

  test('an array column changed after the first call is read again', async () => {
    const r = await h.run(`{
      const arr = [1, 2, 3];
      const t = aq.table({ a: arr });
      const first = t.objects().map(o => o.a);
      arr[1] = 20;
      [first, t.objects().map(o => o.a), same(t, t.objects())]
    }`);
    expect(r.value).toEqual([[1, 2, 3], [1, 20, 3], 3]);
  });
});

describe('tolist() and row loops', () => {
  test.each(TABLES)('%s', async (t, rows) => {
    for (let pass = 0; pass < 2; pass++) {
      const r = await h.run(`{ const t = ${t}; const it = []; for (const row of t) it.push(row);
        [sameLists(t, t.tolist()), sameLists(t, t.to_list()), same(t, it)] }`);
      expect(r.value, r.error?.message).toEqual([rows, rows, rows]);
    }
  });

  test.each(TABLES)('Series tolist() of every column of %s', async (t) => {
    // a grouped table's t[c] is a group-by column, not a Series
    const r = await h.run(`{ const t = (${t}).ungroup();
      t.columnNames().map(c => { const l = t[c].tolist(); return l.length === t.numRows() && l.every((v, i) => eq(v, t.get(c, i) ?? null)) }) }`);
    expect(r.ok, r.error?.message).toBe(true);
    expect((r.value as boolean[]).every(Boolean), JSON.stringify(r.value)).toBe(true);
  });

  test('a loop over the table gets fresh rows: changes, early exits and nesting stay apart', async () => {
    const r = await h.run(`{
      const t = award_data.select('Agency', 'Award Amount');
      const first = [];
      for (const row of t) { first.push(row); row.Agency = 'changed'; row.extra = 1; delete row['Award Amount']; }
      let early = 0;
      for (const row of t) { if (++early === 3) break; }
      const pairs = [];
      for (const a of t) for (const b of t) if (pairs.length < 3) pairs.push(a !== b);
      const spread = [...t], from = Array.from(t);
      [first.every(row => row.Agency === 'changed'), same(t, spread), same(t, from), same(t, t.objects()),
       spread[0] !== from[0], early, pairs]
    }`);
    expect(r.value, r.error?.message).toEqual([true, 8, 8, 8, true, 3, [true, true, true]]);
  });

  test('changed row arrays are rebuilt', async () => {
    const r = await h.run(`{
      const a = award_data.tolist(); a[0].push(1); a[1][0] = 'X'; a[2].length = 1; a[3].reverse();
      sameLists(award_data, award_data.tolist())
    }`);
    expect(r.value).toBe(8);
  });

  test('keyed Series tables keep their own tolist', async () => {
    const r = await h.run("[award_data.Agency.value_counts().tolist(), award_data['Award Year'].tolist()]");
    expect(r.value).toEqual([
      [3, 2, 2],
      [2019, 2020, 2019, 2021, 2022, 2020, 2021, 2023],
    ]);
  });

  test('a column named __proto__ stays an own property', async () => {
    const protoTable = createHarness({
      tables: [columnar('award_data', { ['__proto__']: dict(['a', 'b']), b: f64([3, 4]) })],
    });
    try {
      const r = await protoTable.run(
        '{ const o = award_data.objects(); [Object.keys(o[0]), o[1].__proto__ === undefined ? null : o[1]["__proto__"], award_data.tolist()] }',
      );
      expect(r.value, r.error?.message).toEqual([
        ['__proto__', 'b'],
        'b',
        [
          ['a', 3],
          ['b', 4],
        ],
      ]);
    } finally {
      protoTable.dispose();
    }
  });
});

describe('a larger table, filtered to few rows and to many', () => {
  const n = 5000;
  const table = columnar('award_data', {
    K: dict(Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : `k${i % 13}`))),
    N: f64(Array.from({ length: n }, (_, i) => (i % 11 === 0 ? null : i % 17 === 0 ? NaN : i * 1.5))),
    T: utf8(Array.from({ length: n }, (_, i) => (i % 5 === 0 ? null : `t ${i} ü😀`))),
    D: f64(
      Array.from({ length: n }, (_, i) => (i % 3 === 0 ? null : `20${10 + (i % 10)}-0${1 + (i % 9)}-1${i % 10}`)),
      'date',
    ),
  });
  let big: Harness;
  beforeAll(async () => {
    big = createHarness({ tables: [table], textPages: true, memoryLimitMb: 256 });
    await big.run(HELPERS);
  });
  afterAll(() => big.dispose());

  test('rows past the budget are built for each call, with the same values', async () => {
    const tiny = createHarness({ tables: [table], textPages: true, memoryLimitMb: 0.05 });
    try {
      await tiny.run(HELPERS);
      for (let pass = 0; pass < 2; pass++) {
        const r = await tiny.run(
          '{ const a = award_data.objects(), b = award_data.objects(); [same(award_data, a), same(award_data, b), a[0] !== b[0], same(award_data.filter(d => d.N > 10), award_data.filter(d => d.N > 10).objects()) === award_data.filter(d => d.N > 10).numRows()] }',
        );
        expect(r.value, r.error?.message).toEqual([n, n, true, true]);
      }
    } finally {
      tiny.dispose();
    }
  });

  test.each([
    ['award_data.filter(d => d.N > 7000)', 'few'],
    ['award_data.filter(d => d.N > 10)', 'many'],
    ["award_data.orderby(aq.desc('N')).select('T', 'K')", 'all'],
  ])('%s (%s)', async (t) => {
    for (let pass = 0; pass < 3; pass++) {
      const r = await big.run(
        `{ const t = ${t}; [same(t, t.objects()) === t.numRows(), sameLists(t, t.tolist()) === t.numRows()] }`,
      );
      expect(r.value, r.error?.message).toEqual([true, true]);
    }
  });
});
