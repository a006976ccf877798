// The pandas-like API against pandas semantics (expected values written from pandas' documented
// behaviour: nulls/NaN skipped by sum/mean, count excludes nulls, size does not, NaN keys dropped
// by groupby and value_counts, sort puts missing values last, std uses ddof=1, quantile linear).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { pandasHarness } from './pandasApi.js';

let h: Awaited<ReturnType<typeof pandasHarness>>;
beforeAll(async () => {
  h = await pandasHarness();
});
afterAll(() => h.dispose());
const v = (code: string) => h.value(code);

describe('value_counts / unique / nunique / isna', () => {
  test('counts drop nulls and sort descending; ties keep first appearance', async () => {
    expect(await v("value_counts(F, 'g').objects()")).toEqual([
      { g: 'a', count: 3 },
      { g: 'b', count: 2 },
      { g: 'c', count: 1 },
    ]);
    expect(await v("F.value_counts('s').array('s')")).toEqual(['foo', '', 'Bar', 'baz', 'FOO']);
  });
  test('normalize, dropna, ascending, several columns, arrays', async () => {
    expect(await v("value_counts(F, 'g', { normalize: true }).array('proportion')")).toEqual([0.5, 2 / 6, 1 / 6]);
    expect(await v("value_counts(F, 'g', { dropna: false }).objects()")).toEqual([
      { g: 'a', count: 3 },
      { g: 'b', count: 2 },
      { g: null, count: 1 },
      { g: 'c', count: 1 },
    ]);
    expect(await v("value_counts(F, 'g', { ascending: true }).array('g')")).toEqual(['c', 'b', 'a']);
    expect(await v("value_counts(F, ['g', 's']).objects()[0]")).toEqual({ g: 'a', s: 'foo', count: 1 });
    expect(await v("value_counts(['x', 'y', 'x']).objects()")).toEqual([
      { value: 'x', count: 2 },
      { value: 'y', count: 1 },
    ]);
  });
  test('unique keeps null; nunique does not; a blank is a value', async () => {
    expect(await v("unique(F, 's')")).toEqual(['foo', '', 'Bar', null, 'baz', 'FOO']);
    expect(await v("nunique(F, 's')")).toBe(5);
    expect(await v("nunique(F, 's', { dropna: false })")).toBe(6);
    expect(await v('F.nunique()')).toEqual({ g: 3, x: 5, y: 7, s: 5 });
  });
  test('isna counts NaN and null, not blanks', async () => {
    expect(await v('F.isna().sum()')).toEqual({ g: 1, x: 2, y: 0, s: 1 });
    expect(await v('notna(F).sum()')).toEqual({ g: 6, x: 5, y: 7, s: 6 });
    expect(await v("[isna(NaN), isna(null), isna(''), isna(0)]")).toEqual([true, true, false, false]);
  });
});

describe('reductions', () => {
  test('skip nulls and NaN; count excludes them', async () => {
    expect(await v("['sum', 'mean', 'median', 'min', 'max', 'std', 'var', 'prod'].map(f => F[f]('x'))")).toEqual([
      20,
      4,
      4,
      1,
      7,
      Math.sqrt(6.5),
      6.5,
      336,
    ]);
    expect(await v("F.agg({ x: 'count' }).objects()")).toEqual([{ x: 5 }]);
    expect(await v("[sum([]), mean([]), max([null, NaN]), min('b', 'a'), sum([true, true, null])]")).toEqual([
      0,
      null,
      null,
      'a',
      2,
    ]);
  });
  test('without a column: numeric columns only, as an object', async () => {
    expect(await v('F.sum()')).toEqual({ x: 20, y: 280 });
    expect(await v('F.max()')).toEqual({ g: 'c', x: 7, y: 70, s: 'foo' });
  });
  test('a numeric aggregation of text is a TypeError with a hint', async () => {
    const r = await h.run("F.mean('s')");
    expect(r.error).toMatchObject({ name: 'TypeError' });
    expect(r.error!.hint).toMatch(/numeric columns/);
  });
});

describe('groupby', () => {
  test('agg: keys as sorted columns, null keys dropped, nulls skipped', async () => {
    expect(await v("F.groupby('g').agg({ x: 'sum', y: 'mean' }).objects()")).toEqual([
      { g: 'a', x: 7, y: 100 / 3 },
      { g: 'b', x: 2, y: 35 },
      { g: 'c', x: 7, y: 70 },
    ]);
  });
  test('count vs size vs nunique, first/last skip nulls', async () => {
    expect(await v("F.groupby('g').agg({ x: ['count', 'size', 'first', 'last'], s: 'nunique' }).objects()")).toEqual([
      { g: 'a', x_count: 2, x_size: 3, x_first: 1, x_last: 6, s: 3 },
      { g: 'b', x_count: 1, x_size: 2, x_first: 2, x_last: 2, s: 2 },
      { g: 'c', x_count: 1, x_size: 1, x_first: 7, x_last: 7, s: 1 },
    ]);
  });
  test('named aggregation, pd.NamedAgg form and size', async () => {
    expect(
      await v(
        "F.groupby('g').agg({ total: ['y', 'sum'], avg: { column: 'y', aggfunc: 'mean' }, n: 'size' }).objects()[0]",
      ),
    ).toEqual({ g: 'a', total: 100, avg: 100 / 3, n: 3 });
  });
  test('shortcuts: .size(), .sum(col), .mean(), and dropna:false keeps the null group last', async () => {
    expect(await v("F.groupby('g').size().objects()")).toEqual([
      { g: 'a', size: 3 },
      { g: 'b', size: 2 },
      { g: 'c', size: 1 },
    ]);
    expect(await v("F.groupby('g').sum('y').array('y')")).toEqual([100, 70, 70]);
    expect(await v("F.groupby('g').mean().columnNames()")).toEqual(['g', 'x', 'y']);
    expect(await v("F.groupby('g').agg({ y: 'sum' }, { dropna: false }).objects()")).toEqual([
      { g: 'a', y: 100 },
      { g: 'b', y: 70 },
      { g: 'c', y: 70 },
      { g: null, y: 40 },
    ]);
  });
  test("Arquero's own groupby().rollup() and count() still work; ungrouped size is the row count", async () => {
    expect(await v("F.groupby('g').rollup({ n: op.count(), s: op.sum('y') }).objects().length")).toBe(4);
    expect(await v("F.groupby('g').count().numRows()")).toBe(4);
    expect(await v('F.size')).toBe(7);
  });
  test('several keys, and a function spec', async () => {
    expect(await v("F.groupby(['g', 's']).agg({ y: vals => vals.length }).objects()[0]")).toEqual({
      g: 'a',
      s: 'Bar',
      y: 1,
    });
  });
});

describe('sorting', () => {
  test('missing values last in both directions; stable', async () => {
    expect(await v("sort_values(F, 'x').array('y')")).toEqual([10, 20, 40, 60, 70, 30, 50]);
    expect(await v("F.sort_values('x', { ascending: false }).array('y')")).toEqual([70, 60, 40, 20, 10, 30, 50]);
    expect(await v("F.sort_values('x', false).array('y')")).toEqual([70, 60, 40, 20, 10, 30, 50]);
    expect(await v("sort_values(F, 'x', { na_position: 'first' }).array('y')")).toEqual([30, 50, 10, 20, 40, 60, 70]);
  });
  test('several keys with ascending per key; strings by code unit', async () => {
    expect(await v("sort_values(F, ['g', 'y'], { ascending: [true, false] }).array('y')")).toEqual([
      60, 30, 10, 50, 20, 70, 40,
    ]);
    expect(await v("sort_values(F, 's').array('s')")).toEqual(['', 'Bar', 'FOO', 'baz', 'foo', 'foo', null]);
  });
  test('numbers sort numerically, not as text', async () => {
    expect(await v("sort_values(aq.table({ n: [10, 9, 100, -1] }), 'n').array('n')")).toEqual([-1, 9, 10, 100]);
  });
  test('nlargest / nsmallest skip missing values, accept either argument order', async () => {
    expect(await v("nlargest(F, 2, 'x').array('y')")).toEqual([70, 60]);
    expect(await v("F.nsmallest(2, 'x').array('x')")).toEqual([1, 2]);
    expect(await v("nlargest(F, 'x', 1).array('x')")).toEqual([7]);
  });
  test('head / tail follow the order; head per group', async () => {
    expect(await v("F.sort_values('y', false).head(2).array('y')")).toEqual([70, 60]);
    expect(await v("tail(F, 2).array('y')")).toEqual([60, 70]);
    expect(await v('F.head(-5).numRows()')).toBe(2);
    expect(await v("F.groupby('g').head(1).array('y')")).toEqual([10, 20, 40, 70]);
  });
});

describe('describe', () => {
  test('numeric columns: count, mean, std (ddof=1), min, quartiles (linear), max', async () => {
    expect(await v("describe(F, 'x').array('x')")).toEqual([5, 4, Math.sqrt(6.5), 1, 2, 4, 6, 7]);
    expect(await v("describe(F).array('stat')")).toEqual(['count', 'mean', 'std', 'min', '25%', '50%', '75%', 'max']);
    expect(await v('describe(F).columnNames()')).toEqual(['stat', 'x', 'y']);
  });
  test('text columns: count, unique, top, freq', async () => {
    expect(await v("F.describe('s').objects()")).toEqual([
      { stat: 'count', s: 6 },
      { stat: 'unique', s: 5 },
      { stat: 'top', s: 'foo' },
      { stat: 'freq', s: 2 },
    ]);
  });
  test("include: 'all' and custom percentiles", async () => {
    expect(await v("describe(F, { include: 'all' }).columnNames()")).toEqual(['stat', 'g', 'x', 'y', 's']);
    expect(await v("describe(F, 'y', { percentiles: [0.1] }).array('stat')")).toEqual([
      'count',
      'mean',
      'std',
      'min',
      '10%',
      'max',
    ]);
    // a percentile outside 0..1 is an error that says so (the quantiles are selected, not looked up)
    const r = await h.run("describe(F, 'y', { percentiles: [0.5, 1.5] })");
    expect(r.error).toMatchObject({ name: 'ValueError' });
    expect(r.error!.message).toMatch(/between 0 and 1/);
  });
});

describe('stats', () => {
  test('quantile, corr', async () => {
    expect(await v("[quantile(F, 'x', 0.25), quantile(F, 'x', 0.9), F.quantile(0.5, 'y')]")).toEqual([2, 6.6, 40]);
    expect(await v("quantile(F, 'x', [0.5, 1])")).toEqual({ '0.5': 4, '1': 7 });
    expect(await v("corr(F, 'x', 'y')")).toBeCloseTo(1, 12);
    expect(await v('corr(F).objects()[0]')).toEqual({ column: 'x', x: 1, y: expect.closeTo(1, 12) });
  });
  test('cumsum keeps missing values missing; pct_change; both within groups', async () => {
    expect(await v("cumsum(F, 'x').array('x')")).toEqual([1, 3, null, 7, null, 13, 20]);
    const pct = (await v("pct_change(F, 'y').array('y')")) as number[];
    expect(pct[0]).toBeNull();
    expect(pct.slice(1)).toEqual([1, 0.5, 1 / 3, 0.25, 0.2, 1 / 6].map((x) => expect.closeTo(x, 12)));
    expect(await v("F.groupby('g').cumsum('y').array('y')")).toEqual([10, 20, 40, 40, 70, 100, 70]);
  });
  test('round: half to even like numpy, tables and arrays', async () => {
    expect(
      await v('[round(0.5), round(1.5), round(2.5), round(-0.5), round(0.125, 2), round(1234.5, -2), round(null)]'),
    ).toEqual([0, 2, 2, 0, 0.12, 1200, null]); // -0 arrives as 0 (JSON)
    expect(await v("round(aq.table({ a: [1.25, 2.35] }), 1).array('a')")).toEqual([1.2, 2.4]);
    expect(await v("F.derive({ r: d => round(d.y / 3, 1) }).array('r').slice(0, 2)")).toEqual([3.3, 6.7]);
  });
});

describe('cleaning', () => {
  test('fillna per column and for all columns', async () => {
    expect(await v("fillna(F, { x: 0 }).array('x')")).toEqual([1, 2, 0, 4, 0, 6, 7]);
    expect(await v("F.fillna('?').array('g')")).toEqual(['a', 'b', 'a', '?', 'b', 'a', 'c']);
  });
  test('dropna any / all / subset (blank strings are kept)', async () => {
    expect(await v("dropna(F).array('y')")).toEqual([10, 20, 60, 70]);
    expect(await v("dropna(F, { subset: ['x'] }).numRows()")).toBe(5);
    expect(await v("dropna(F, { subset: ['g', 'x'], how: 'all' }).numRows()")).toBe(7);
  });
  test('drop_duplicates keep first / last / false', async () => {
    expect(await v("drop_duplicates(F, 'g').array('y')")).toEqual([10, 20, 40, 70]);
    expect(await v("drop_duplicates(F, 'g', { keep: 'last' }).array('y')")).toEqual([40, 50, 60, 70]);
    expect(await v("F.drop_duplicates({ subset: 'g', keep: false }).array('y')")).toEqual([40, 70]);
  });
});

describe('reshape', () => {
  const L = "aq.table({ k: ['a', 'b', 'c'], v: [1, 2, 3] })";
  const R = "aq.table({ k: ['b', 'a', 'a', 'd'], v: [10, 20, 30, 40] })";
  test('merge how=inner|left|right|outer with pandas row order and suffixes', async () => {
    expect(await v(`merge(${L}, ${R}, { on: 'k' }).objects()`)).toEqual([
      { k: 'a', v_x: 1, v_y: 20 },
      { k: 'a', v_x: 1, v_y: 30 },
      { k: 'b', v_x: 2, v_y: 10 },
    ]);
    expect(await v(`merge(${L}, ${R}, 'k', 'left').array('v_y')`)).toEqual(
      [20, 30, 10, undefined].map((x) => x ?? null),
    );
    expect(await v(`merge(${L}, ${R}, { on: 'k', how: 'right' }).array('k')`)).toEqual(['b', 'a', 'a', 'd']);
    expect(await v(`merge(${L}, ${R}, { on: 'k', how: 'outer' }).array('k')`)).toEqual(['a', 'a', 'b', 'c', 'd']);
    expect(await v(`${L}.merge(${R}, { on: 'k', suffixes: ['_l', '_r'] }).columnNames()`)).toEqual(['k', 'v_l', 'v_r']);
  });
  test('merge with left_on / right_on', async () => {
    expect(
      await v(`merge(${L}, aq.table({ key: ['c'], w: [9] }), { left_on: 'k', right_on: 'key' }).objects()`),
    ).toEqual([{ k: 'c', v: 3, key: 'c', w: 9 }]);
  });
  test('concat: union of columns, missing cells null (function and method)', async () => {
    expect(await v('concat([aq.table({ a: [1] }), aq.table({ b: [2], a: [3] })]).objects()')).toEqual([
      { a: 1, b: null },
      { a: 3, b: 2 },
    ]);
    expect(await v('aq.table({ a: [1] }).concat(aq.table({ b: [2] })).columnNames()')).toEqual(['a', 'b']);
  });
  const P = "aq.table({ r: ['r1', 'r1', 'r2', 'r2', 'r2'], c: ['A', 'B', 'A', 'A', null], v: [1, 2, 3, 5, 7] })";
  test('pivot_table: mean by default, fill_value, null column keys dropped', async () => {
    expect(await v(`pivot_table(${P}, { index: 'r', columns: 'c', values: 'v' }).objects()`)).toEqual([
      { r: 'r1', A: 1, B: 2 },
      { r: 'r2', A: 4, B: null },
    ]);
    expect(await v(`pivot_table(${P}, 'r', 'c', 'v', 'sum').objects()`)).toEqual([
      { r: 'r1', A: 1, B: 2 },
      { r: 'r2', A: 8, B: null },
    ]);
  });
  test('pivot_table margins aggregate the raw values', async () => {
    const Q = "aq.table({ r: ['r1', 'r1', 'r2', 'r2'], c: ['A', 'B', 'A', 'A'], v: [1, 2, 3, 5] })";
    expect(
      await v(
        `pivot_table(${Q}, { index: 'r', columns: 'c', values: 'v', aggfunc: 'mean', fill_value: 0, margins: true }).objects()`,
      ),
    ).toEqual([
      { r: 'r1', A: 1, B: 2, All: 1.5 },
      { r: 'r2', A: 4, B: 0, All: 4 },
      { r: 'All', A: 3, B: 2, All: 11 / 4 },
    ]);
  });
  test('crosstab counts, normalize, margins', async () => {
    expect(await v(`crosstab(${P}, 'r', 'c').objects()`)).toEqual([
      { r: 'r1', A: 1, B: 1 },
      { r: 'r2', A: 2, B: 0 },
    ]);
    expect(await v(`crosstab(${P}, 'r', 'c', { normalize: 'index' }).objects()`)).toEqual([
      { r: 'r1', A: 0.5, B: 0.5 },
      { r: 'r2', A: 1, B: 0 },
    ]);
    expect(await v(`crosstab(${P}, 'r', 'c', { margins: true }).objects()[2]`)).toEqual({
      r: 'All',
      A: 3,
      B: 1,
      All: 4,
    });
  });
});

describe('strings and dates', () => {
  test('contains: case, na, regex', async () => {
    expect(
      await v(
        "[contains('Quantum X', 'quantum'), contains('Quantum X', 'quantum', { case: false }), contains(null, 'x'), contains(null, 'x', { na: true }), contains('ab', 'a.'), contains('ab', 'a.', { regex: false }), contains('a.b', '.', { regex: false }), contains('AB', /b/i)]",
      ),
    ).toEqual([false, true, false, true, true, false, true, true]);
    const bad = await h.run("contains('x', '(')");
    expect(bad.error!.hint).toMatch(/regex: false/);
  });
  test('contains inside filter (compiled and closure paths agree)', async () => {
    expect(await v("F.filter(d => contains(d.s, 'foo', { case: false })).array('y')")).toEqual([10, 50, 70]);
    expect(await v("var pat = 'foo'; F.filter(d => contains(d.s, pat, { case: false })).array('y')")).toEqual([
      10, 50, 70,
    ]);
  });
  test('startswith, endswith, lower, upper, strip, len, split, replace are null-safe', async () => {
    expect(
      await v(
        "[startswith('abc', 'ab'), startswith(null, 'a'), endswith('abc', 'c'), lower('AbC'), lower(null), upper('a'), strip('  x '), len('abc'), len(null), len(F), split('a,b', ','), replace('aXa', 'X', '-')]",
      ),
    ).toEqual([true, false, true, 'abc', null, 'A', 'x', 3, null, 7, ['a', 'b'], 'a-a']);
  });
  test('to_datetime reads both SBIR formats in UTC; bad input is null', async () => {
    expect(
      await v(
        "['2021-03-05', '3/5/2021', '03/05/2021', '2021-03-05T10:30:00Z', '2021-03-05 10:30', '2021', '2021-02-30', '13/1/2021', 'soon', '', null].map(s => to_datetime(s))",
      ),
    ).toEqual([
      '2021-03-05T00:00:00.000Z',
      '2021-03-05T00:00:00.000Z',
      '2021-03-05T00:00:00.000Z',
      '2021-03-05T10:30:00.000Z',
      '2021-03-05T10:30:00.000Z',
      '2021-01-01T00:00:00.000Z',
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(await v("to_datetime(aq.table({ d: ['1/2/2020', null] }), 'd').dtypes")).toEqual({ d: 'date' });
  });
  test('year, month (1-based), day, quarter in UTC, also as op.* inside expressions', async () => {
    expect(
      await v("[year('12/31/1999'), month('2021-03-05'), day('2021-03-05'), quarter('2021-11-01'), month(null)]"),
    ).toEqual([1999, 3, 5, 4, null]);
    expect(
      await v(
        'aq.table({ d: [new Date(Date.UTC(2020, 11, 31, 23, 59))] }).derive({ y: d => op.year(d.d), m: d => op.month(d.d), q: d => quarter(d.d) }).objects()[0]',
      ),
    ).toEqual({ d: '2020-12-31T23:59:00.000Z', y: 2020, m: 12, q: 4 });
  });
});

describe('overview', () => {
  test('shape, columns, dtypes as properties and functions; len', async () => {
    expect(await v('[F.shape, shape(F), F.columns, columns(F), len(F)]')).toEqual([
      [7, 4],
      [7, 4],
      ['g', 'x', 'y', 's'],
      ['g', 'x', 'y', 's'],
      7,
    ]);
    expect(await v('F.dtypes')).toEqual({ g: 'string', x: 'integer', y: 'integer', s: 'string' });
  });
  test('info prints non-null counts', async () => {
    const r = await h.run('F.info()');
    expect(r.stdout).toBe(
      [
        "<class 'arquero.ColumnTable'>",
        'RangeIndex: 7 entries, 0 to 6',
        'Data columns (total 4 columns):',
        ' #   Column  Non-Null Count  Dtype',
        '---  ------  --------------  -----',
        ' 0   g       6 non-null      string',
        ' 1   x       5 non-null      integer',
        ' 2   y       7 non-null      integer',
        ' 3   s       6 non-null      string',
        'dtypes: string(2), integer(2)',
        '',
      ].join('\n'),
    );
  });
  test('rename accepts the pandas form', async () => {
    expect(await v("F.rename({ columns: { g: 'group' } }).columnNames()")).toEqual(['group', 'x', 'y', 's']);
    expect(await v("F.rename({ g: 'group' }).columnNames()[0]")).toBe('group');
  });
});
