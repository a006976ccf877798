// concat of host tables keeps the columnar layout (prelude/data/concatColumns.ts, concatGather.ts):
// every column whose parts are host columns becomes one typed column (dictionary codes remapped onto
// a merged dictionary, Float64Arrays, booleans, UTF-8 text), with nulls kept and a table lacking the
// column contributing nulls; the answers equal those of the same rows concatenated as plain arrays.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bool, columnar, dict, f64, utf8 } from './fixture.js';
import { createHarness, type Harness } from './harness.js';

// two tables whose dictionaries differ (different values, different orders, nulls in both)
const A = columnar('a', {
  K: dict(['x', 'y', null, 'x', 'z', 'y']),
  V: f64([1, 2.5, null, 4, 5, 6]),
  N: f64([1, 2, 3, null, 5, 6], 'integer'),
  D: f64([0, 86_400_000, null, 3 * 86_400_000, 4e11, 5e11], 'date'),
  B: bool([true, false, null, true, true, false]),
  T: utf8(['long text one', null, 'café ü', '', 'quantum a', 'x']),
});
const B = columnar('b', {
  K: dict(['z', 'w', 'w', null, 'x']),
  V: f64([null, -0, 7.25, 8, 9]),
  N: f64([10, 11, null, 13, 14], 'integer'),
  D: f64([6e11, null, 7e11, 8e11, 9e11], 'date'),
  B: bool([null, true, false, false, true]),
  T: dict(['quantum b', 'y', 'y', null, 'quantum b']),
  only: f64([1, 2, 3, 4, 5]),
});
// a number column whose other part is integer: the concatenated column is number
const C = columnar('c', { N: f64([0.5, 1.5, null]), K: dict(['w', 'v', 'w']) });

let h: Harness;
beforeAll(() => {
  h = createHarness({ tables: [A, B, C], textPages: true });
});
afterAll(() => h.dispose());

async function value(code: string): Promise<unknown> {
  const r = await h.run(code);
  if (!r.ok) throw new Error(`${code}: ${r.error?.message}`);
  return JSON.parse(JSON.stringify(r.value));
}

// the same rows as plain arrays, where no typed path applies
const PLAIN = `const plain = (t) => aq.table(Object.fromEntries(t.columnNames().map((c) => [c, t.array(c).slice()])));`;

describe('concat of host tables', () => {
  test('keeps each column typed: codes, Float64Arrays, booleans, text', async () => {
    expect(
      await value(
        "const c = concat([tables.a, tables.b]); ['K', 'V', 'N', 'D', 'B', 'T', 'only'].map((n) => [n, c.column(n).kind, c.column(n).length])",
      ),
    ).toEqual([
      ['K', 'dict', 11],
      ['V', 'float64', 11],
      ['N', 'float64', 11],
      ['D', 'float64', 11],
      ['B', 'bool', 11],
      ['T', 'utf8', 11],
      ['only', 'float64', 11],
    ]);
    // nothing is fetched at concat time: columns are gathered when first read
    const before = h.fetched.length;
    await value('concat([tables.a, tables.b, tables.c]).numRows()');
    expect(h.fetched.slice(before)).toEqual([]);
  });

  test('rows equal the plain concatenation: merged dictionary, nulls, a missing column, mixed number types', async () => {
    const rows = await value(
      `${PLAIN} const c = concat([tables.a, tables.b, tables.c]); const p = concat([plain(tables.a), plain(tables.b), plain(tables.c)]);
       [c.objects(), p.objects(), c.dtypes ?? null]`,
    );
    const [typed, plain] = rows as [unknown[], unknown[]];
    expect(typed).toEqual(plain);
    expect(typed).toHaveLength(14);
    expect(typed[6]).toMatchObject({ K: 'z', V: null, only: 1, T: 'quantum b' });
    expect(typed[2]).toMatchObject({ K: null, V: null, N: 3, only: null, B: null, T: 'café ü' });
    expect(typed[11]).toMatchObject({ K: 'w', N: 0.5, V: null, only: null, T: null });
  });

  test('answers equal the plain concatenation: group-by, distinct, value counts, filter, top-k, contains', async () => {
    const q = [
      "(t) => t.groupby('K').rollup({ n: op.count(), s: op.sum('V') }).orderby('K').objects()",
      '(t) => [t.K.nunique(), t.T.nunique(), t.N.nunique()]',
      '(t) => t.K.value_counts().tolist()',
      "(t) => t.filter((d) => d.V > 2 && d.K !== 'y').numRows()",
      "(t) => t.orderby(aq.desc('V')).slice(0, 3).array('V')",
      "(t) => [t.T.str.contains('quantum').sum(), t.T.str.len().tolist()]",
      "(t) => [t.B.sum(), t.N.sum(), t.D.max(), t.filter((d) => d.B === true).array('K')]",
      "(t) => t.filter((d) => d.V > 2).orderby('V').concat(t.slice(0, 2)).array('K')",
    ];
    const got = await value(
      `${PLAIN} const qs = [${q.join(',')}]; const c = concat([tables.a, tables.b, tables.c]); const p = concat([plain(tables.a), plain(tables.b), plain(tables.c)]);
       qs.map((f) => [JSON.stringify(f(c)), JSON.stringify(f(p))])`,
    );
    for (const [typed, plain] of got as [string, string][]) expect(typed).toBe(plain);
  });

  test('filtered and ordered parts gather only their visible rows, in order', async () => {
    const got = await value(
      `${PLAIN} const fa = tables.a.filter((d) => d.V !== null).orderby(aq.desc('V')); const fb = tables.b.slice(1, 4);
       const c = concat([fa, fb, concat([fb, fa])]); const p = concat([plain(fa), plain(fb), concat([plain(fb), plain(fa)])]);
       [c.column('K').kind, JSON.stringify(c.objects()) === JSON.stringify(p.objects()), c.numRows(), c.K.value_counts().tolist()]`,
    );
    expect(got).toEqual(['dict', true, 16, expect.any(Array)]);
  });

  test('one table concatenated with itself shares its dictionary', async () => {
    expect(await value("const c = concat([tables.b, tables.b]); [c.column('K').kind, c.K.tolist()]")).toEqual([
      'dict',
      ['z', 'w', 'w', null, 'x', 'z', 'w', 'w', null, 'x'],
    ]);
  });

  test('a column of numbers in one table and text in another reads row by row', async () => {
    expect(
      await value(
        "const c = concat([tables.a.select('V'), aq.table({ V: ['text'] })]); [c.column('V').kind ?? 'rows', c.array('V')]",
      ),
    ).toEqual(['rows', [1, 2.5, null, 4, 5, 6, 'text']]);
  });
});
