// The Series (t['col'], t.col) against pandas semantics. Expected values were computed with pandas
// 1.5 on the same data (F of pandasApi.ts: NaN and null in x, a null key in g, blank and case variants
// in s) and are written out here, so the test needs no Python.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { pandasHarness } from './pandasApi.js';

let h: Awaited<ReturnType<typeof pandasHarness>>;
beforeAll(async () => {
  h = await pandasHarness();
});
afterAll(() => h.dispose());
const v = (code: string) => h.value(code);
const err = async (code: string) => (await h.run(code)).error!;

describe('column access', () => {
  test("t['col'] and t.col are the same Series; methods win over columns", async () => {
    expect(await v("F['y'].tolist()")).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(await v('F.y.name')).toBe('y');
    expect(await v("typeof F.filter === 'function' && typeof F.select === 'function'")).toBe(true);
    expect(await v("aq.table({ filter: [1] })['filter'] === aq.table({}).filter")).toBe(true);
    expect(await v('F.nope')).toBeUndefined();
    expect(await v("award_data['Award Amount'].count()")).toBe(7);
  });
  test('every table has it, including derived ones and tables in `tables`', async () => {
    expect(await v('tables.award_data.Agency.nunique()')).toBe(3);
    expect(await v('F.derive({ z: d => d.y * 2 }).z.sum()')).toBe(560);
    expect(await v("F.orderby(aq.desc('y')).y.head(2).tolist()")).toEqual([70, 60]);
  });
  test("t[['a', 'b']] selects columns", async () => {
    expect(await v("F[['g', 'y']].columnNames()")).toEqual(['g', 'y']);
    expect(await v('F.isnull().sum()')).toEqual(await v('F.isna().sum()'));
  });
  test('a column Series reads the table, filter and order applied, with the original labels', async () => {
    expect(await v('F.filter(F.x.gt(3)).x.tolist()')).toEqual([4, 6, 7]);
    expect(await v('F.filter(F.x.gt(3)).x.idxmax()')).toBe(6);
    expect(await v('F.filter(F.x.gt(3)).x.index')).toEqual([3, 5, 6]);
  });
});

describe('column assignment', () => {
  test("t['new'] = series adds a column to that table only; scalars broadcast; lengths must match", async () => {
    expect(
      await v(
        "var T = aq.table({ a: [1, 2, 3] }); var before = T.select('a'); T['b'] = T.a.mul(2); T.c = 'x'; [T.columnNames(), T.b.tolist(), T.c.tolist(), before.columnNames()]",
      ),
    ).toEqual([['a', 'b', 'c'], [2, 4, 6], ['x', 'x', 'x'], ['a']]);
    expect(await v("T['a'] = T.a.add(10); T.a.tolist()")).toEqual([11, 12, 13]);
    expect(await v("var R = F.filter(F.y.gt(30)); R['z'] = R.y.add(1); R.z.tolist()")).toEqual([41, 51, 61, 71]);
    expect((await err("T['d'] = F.y")).name).toBe('ValueError');
    expect(await v('T.meta = { note: 1 }; T.meta.note')).toBe(1);
  });
  test('describeData still describes the dataset after a session adds a column to award_data', async () => {
    expect(
      await v(
        "award_data['big'] = award_data['Award Amount'].gt(500000); [award_data.big.sum(), describeData().columns.length]",
      ),
    ).toEqual([3, 7]);
  });
});

describe('aggregates skip null and NaN', () => {
  test('sum mean median std var quantile count min max idxmax idxmin', async () => {
    expect(
      await v(
        '[F.x.sum(), F.x.mean(), F.x.median(), F.x.var(), F.x.quantile(0.25), F.x.count(), F.x.min(), F.x.max(), F.x.idxmax(), F.x.idxmin()]',
      ),
    ).toEqual([20, 4, 4, 6.5, 2, 5, 1, 7, 6, 0]);
    expect(await v('F.x.std()')).toBeCloseTo(2.5495097567963922, 12);
    expect(await v("F.x.agg(['min', 'max']).tolist()")).toEqual([1, 7]);
    expect(await v("F.x.agg('sum')")).toBe(20);
  });
  test('empty and all-null Series: sum is 0, the rest null', async () => {
    expect(
      await v('[F.x.head(0).sum(), F.x.head(0).mean(), F.x.head(0).max(), F.x.head(0).count(), F.x.head(0).idxmax()]'),
    ).toEqual([0, null, null, 0, null]);
    expect(
      await v(
        'const N = aq.table({ n: [null, null, NaN] }); [N.n.sum(), N.n.mean(), N.n.min(), N.n.std(), N.n.nunique(), N.n.count(), N.n.median()]',
      ),
    ).toEqual([0, null, null, null, 0, 0, null]);
    expect(await v('aq.table({ n: [null, null] }).n.value_counts().numRows()')).toBe(0);
  });
  test('booleans count as 0/1; text is a TypeError with a hint', async () => {
    expect(await v('[F.y.gt(30).sum(), F.y.gt(30).mean()]')).toEqual([4, 4 / 7]);
    const e = await err('F.s.sum()');
    expect(e.name).toBe('TypeError');
    expect(e.hint).toMatch(/numeric column/);
  });
});

describe('missing values: isna/notna/fillna/dropna', () => {
  test('NaN and null are both missing; blanks are values', async () => {
    expect(await v('F.x.isna().tolist()')).toEqual([false, false, true, false, true, false, false]);
    expect(await v('F.x.isnull().sum() + F.x.notna().sum()')).toBe(7);
    expect(await v('F.s.isna().sum()')).toBe(1);
    expect(await v('F.x.fillna(0).tolist()')).toEqual([1, 2, 0, 4, 0, 6, 7]);
    expect(await v('F.x.dropna().tolist()')).toEqual([1, 2, 4, 6, 7]);
    expect(await v('F.x.dropna().index')).toEqual([0, 1, 3, 5, 6]);
    expect(await v("F.x.fillna({ method: 'ffill' }).tolist()")).toEqual([1, 2, 2, 4, 4, 6, 7]);
  });
});

describe('element-wise', () => {
  test('round half to even, abs, cumsum keeps missing positions, diff, pct_change', async () => {
    expect(await v('aq.table({ r: [2.5, 3.5, -0.5, null] }).r.round().tolist()')).toEqual([2, 4, 0, null]);
    expect(await v('F.x.cumsum().tolist()')).toEqual([1, 3, null, 7, null, 13, 20]);
    expect(await v('F.x.diff().tolist()')).toEqual([null, 1, null, null, null, null, 1]);
    const pct = (await v('F.x.pct_change().tolist()')) as Array<number | null>;
    expect(pct.slice(0, 6)).toEqual([null, 1, null, null, null, null]);
    expect(pct[6]).toBeCloseTo(1 / 6, 12);
    expect(await v('F.y.sub(100).abs().tolist()')).toEqual([90, 80, 70, 60, 50, 40, 30]);
  });
  test('map (function, object), apply, astype', async () => {
    expect(await v('F.g.map({ a: 1, b: 2 }).tolist()')).toEqual([1, 2, 1, null, 2, 1, null]);
    expect(await v('F.y.apply(v => v / 10).tolist()')).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await v("F.y.astype('str').tolist()")).toEqual(['10', '20', '30', '40', '50', '60', '70']);
    expect(await v("aq.table({ t: ['1.5', '2', null] }).t.astype('float').tolist()")).toEqual([1.5, 2, null]);
    expect(await v("F.x.astype('int').dtype")).toBe('int64');
  });
  test('arithmetic between Series and with scalars; missing stays missing', async () => {
    expect(await v('F.x.add(F.y).tolist()')).toEqual([11, 22, null, 44, null, 66, 77]);
    expect(await v('F.y.div(10).mul(2).tolist()')).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(await v("F.s.add('!').tolist()")).toEqual(['foo!', '!', 'Bar!', null, 'foo!', 'baz!', 'FOO!']);
  });
});

describe('comparisons and masks', () => {
  test('a comparison with a missing value is false (ne: true)', async () => {
    expect(await v('F.x.gt(3).tolist()')).toEqual([false, false, false, true, false, true, true]);
    expect(await v('F.x.ne(2).tolist()')).toEqual([true, false, true, true, true, true, true]);
    expect(await v("F.g.eq('a').or(F.g.eq('c')).not().tolist()")).toEqual([
      false,
      true,
      false,
      true,
      true,
      false,
      false,
    ]);
    expect(await v("F.g.isin(['a', 'c']).sum()")).toBe(4);
    expect(await v('F.y.between(20, 40).sum()')).toBe(3);
    expect(await v("F.y.between(20, 40, 'neither').sum()")).toBe(1);
  });
  test('masks filter tables: filter, loc(), loc[], t[mask]', async () => {
    expect(await v("F.filter(F.g.eq('a')).y.tolist()")).toEqual([10, 30, 60]);
    expect(await v("F.loc(F.g.eq('a'), 'y').tolist()")).toEqual([10, 30, 60]);
    expect(await v("F.loc[F.g.eq('a')].numRows()")).toBe(3);
    expect(await v("F[F.g.eq('a').and(F.y.gt(10))].y.tolist()")).toEqual([30, 60]);
    expect(await v("F.loc(F.g.eq('a'), ['g', 'y']).columnNames()")).toEqual(['g', 'y']);
  });
  test('s[mask] on a Series filters it as s.filter(mask) does: values, labels, length checked', async () => {
    expect(await v('F.y[F.y.gt(30)].tolist()')).toEqual([40, 50, 60, 70]);
    expect(await v('F.y[F.y.gt(30)].index')).toEqual([3, 4, 5, 6]);
    expect(await v("F.y[F.g.eq('a')].sum()")).toBe(100);
    expect(await v('var s = F.x; s[s.isna()].length')).toBe(2);
    expect(await v('F.y[F.y.gt(30)].tolist()')).toEqual(await v('F.y.filter(F.y.gt(30)).tolist()'));
    expect((await err('F.y[aq.table({ a: [1, 2] }).a.gt(1)]')).name).toBe('TypeError');
    // a key that is no mask and no method reads as before
    expect(await v('F.y.nope')).toBeUndefined();
    expect(await v('F.y.tolist !== undefined && F.y.length')).toBe(7);
  });
  test('a mask from the whole table applies by label to a filtered one', async () => {
    expect(await v('F.filter(F.y.gt(20)).filter(F.x.gt(3)).y.tolist()')).toEqual([40, 60, 70]);
  });
  test('JavaScript operators on a Series fail with the method to use', async () => {
    const e = await err('F.x > 3');
    expect(e.name).toBe('TypeError');
    expect(e.hint).toMatch(/s\.gt\(/);
    expect((await err('F.filter(F.y)')).message).toMatch(/boolean mask/);
    expect((await err('F.filter(F.y.head(2).gt(1))')).name).toBe('ValueError');
  });
});

describe('counting, ordering, conversion', () => {
  test('unique keeps null; nunique does not; value_counts is a keyed table', async () => {
    expect(await v('F.s.unique()')).toEqual(['foo', '', 'Bar', null, 'baz', 'FOO']);
    expect(await v('F.s.nunique()')).toBe(5);
    expect(await v('F.s.value_counts().objects()[0]')).toEqual({ s: 'foo', count: 2 });
    expect(await v('F.g.value_counts().idxmax()')).toBe('a');
    expect(await v("F.g.value_counts()['b']")).toBe(2);
    expect(await v('F.g.value_counts().to_dict()')).toEqual({ a: 3, b: 2, c: 1 });
    expect(await v('F.g.mode()')).toEqual(['a']);
  });
  test('sorting is stable with missing values last; nlargest skips them', async () => {
    expect(await v('F.x.sort_values().tolist()')).toEqual([1, 2, 4, 6, 7, null, null]);
    expect(await v('F.x.sort_values({ ascending: false }).index')).toEqual([6, 5, 3, 1, 0, 2, 4]);
    expect(await v('F.x.nlargest(2).tolist()')).toEqual([7, 6]);
    expect(await v('F.y.tail(2).tolist()')).toEqual([60, 70]);
  });
  test('indexers, iteration, properties', async () => {
    expect(await v('[F.y.iloc[0], F.y.iloc(-1), F.y.loc[2], F.y.iat[1]]')).toEqual([10, 70, 30, 20]);
    expect(await v('[...F.y].length + Array.from(F.g).length')).toBe(14);
    expect(await v('[F.y.size, F.y.shape, F.y.empty, F.y.dtype, F.s.dtype, F.x.hasnans]')).toEqual([
      7,
      [7],
      false,
      'int64',
      'object',
      true,
    ]);
    expect(await v('F.y.to_frame().columnNames()')).toEqual(['y']);
    expect(await v('F.y.head(2).to_dict()')).toEqual({ 0: 10, 1: 20 });
    expect(await v('len(F.y) + sum(F.y)')).toBe(287);
  });
});

describe('.str and .dt', () => {
  test('unicode strings: code points, case, title; missing stays missing', async () => {
    await h.run("var U = aq.table({ s: ['Café', 'ÉCOLE normale', null, 'naïve ✓', '🚀x'] })");
    expect(await v('U.s.str.len().tolist()')).toEqual([4, 13, null, 7, 2]);
    expect(await v('U.s.str.lower().tolist()')).toEqual(['café', 'école normale', null, 'naïve ✓', '🚀x']);
    expect(await v('U.s.str.title().iloc[1]')).toBe('École Normale');
    expect(await v("U.s.str.contains('é', { case: false }).tolist()")).toEqual([true, true, false, false, false]);
    expect(await v('U.s.str.slice(0, 1).tolist()')).toEqual(['C', 'É', null, 'n', '🚀']);
  });
  test('contains is a regex unless regex: false; replace is literal unless a RegExp', async () => {
    expect(await v("F.s.str.contains('^f', { case: false }).tolist()")).toEqual([
      true,
      false,
      false,
      false,
      true,
      false,
      true,
    ]);
    expect(await v("aq.table({ t: ['a.b', 'axb'] }).t.str.contains('.', { regex: false }).tolist()")).toEqual([
      true,
      false,
    ]);
    expect(await v("aq.table({ t: ['a.b.c'] }).t.str.replace('.', '-').iloc[0]")).toBe('a-b-c');
    expect(await v("aq.table({ t: ['a1b22'] }).t.str.replace(/\\d+/g, '#').iloc[0]")).toBe('a#b#');
    expect(await v("aq.table({ t: ['x@y.com', null] }).t.str.split('@').str.get(1).tolist()")).toEqual(['y.com', null]);
  });
  test('dates are UTC; dayofweek is Monday=0; missing dates give missing parts', async () => {
    const d = "award_data['Proposal Award Date']";
    expect(await v(`${d}.dt.year.tolist()`)).toEqual([2019, 2020, null, 2021, 2022, 2020, 2021, 2023]);
    expect(await v(`${d}.dt.dayofweek.iloc[5]`)).toBe(5);
    expect(await v(`${d}.dt.quarter.tolist()`)).toEqual([1, 3, null, 1, 4, 1, 2, 3]);
    expect(await v(`${d}.min()`)).toBe('2019-03-15T00:00:00.000Z');
    expect(await v(`${d}.gt('2021-06-15').sum()`)).toBe(2);
    expect(await v(`${d}.dt.strftime('%Y-%m').iloc[0]`)).toBe('2019-03');
  });
});

describe('groupby column selection', () => {
  test('returns keys as columns, sorted, null keys dropped', async () => {
    expect(await v("F.groupby('g')['y'].sum().objects()")).toEqual([
      { g: 'a', y: 100 },
      { g: 'b', y: 70 },
      { g: 'c', y: 70 },
    ]);
    expect(await v("F.groupby('g').x.mean().array('x')")).toEqual([3.5, 2, 7]);
    expect(await v("F.groupby('g')['x'].agg(['count', 'max']).objects()[0]")).toEqual({ g: 'a', count: 2, max: 6 });
    expect(await v("F.groupby('g')['y'].size().array('size')")).toEqual([3, 2, 1]);
    expect(await v("F.groupby('g')['y'].sum().sort_values({ ascending: false }).array('g')")).toEqual(['a', 'b', 'c']);
    // groupby(...).size() is a keyed Series too: sort_values without a column sorts the sizes
    expect(await v("F.groupby('g').size().sort_values({ ascending: false }).array('size')")).toEqual([3, 2, 1]);
    expect(await v("F.groupby(['g', 's']).size().sort_values({ ascending: false }).head(1).objects()[0].size")).toBe(
      await v("Math.max(...F.groupby(['g', 's']).size().array('size'))"),
    );
    expect(await v("F.groupby(['g', 's']).size().nlargest(2).numRows()")).toBe(2);
    expect(await v("F.groupby('g')['y'].sum().idxmax()")).toBe('a');
    expect(await v("F.groupby('g')['s'].value_counts().objects()[0]")).toEqual({ g: 'a', s: 'foo', count: 1 });
    expect(await v("F.groupby('g')[['x', 'y']].sum().columnNames()")).toEqual(['g', 'x', 'y']);
    expect(await v("F.groupby(F.g.eq('a').rename('is_a'))['y'].sum().objects()")).toEqual([
      { is_a: false, y: 180 },
      { is_a: true, y: 100 },
    ]);
  });
});
