// t.query(): pandas query strings, parsed by a recursive-descent parser (prelude/query/parse.ts) and
// never evaluated as JavaScript. Counts were checked against pandas 1.5 df.query on the same F.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseQuery } from '../../../prelude/query/parse.js';
import { pandasHarness } from './pandasApi.js';

let h: Awaited<ReturnType<typeof pandasHarness>>;
beforeAll(async () => {
  h = await pandasHarness();
});
afterAll(() => h.dispose());
const v = (code: string) => h.value(code);
const err = async (code: string) => (await h.run(code)).error!;

describe('parser', () => {
  test('precedence: not > and > or; comparisons chain; arithmetic binds tighter', () => {
    expect(parseQuery('a == 1 or b == 2 and not c')).toMatchObject({
      type: 'bool',
      op: 'or',
      right: { type: 'bool', op: 'and', right: { type: 'not' } },
    });
    expect(parseQuery('1 < x <= 3')).toMatchObject({ type: 'bool', op: 'and', left: { op: '<' }, right: { op: '<=' } });
    expect(parseQuery('x + 1 * 2 > 3')).toMatchObject({
      type: 'cmp',
      left: { type: 'arith', op: '+', right: { op: '*' } },
    });
    expect(parseQuery('`Award Amount` >= @lim')).toMatchObject({
      left: { type: 'col', name: 'Award Amount' },
      right: { type: 'var', name: 'lim' },
    });
    expect(parseQuery('g not in [\'a\', "b"]')).toMatchObject({
      op: 'not in',
      right: { type: 'list', items: [{ value: 'a' }, { value: 'b' }] },
    });
    expect(parseQuery("s.str.contains('x', case=False)")).toMatchObject({
      type: 'attr',
      name: 'contains',
      args: [{ key: null }, { key: 'case', node: { value: false } }],
    });
  });
  test('syntax errors name the position', () => {
    expect(() => parseQuery('x = 1')).toThrow(/'=' is assignment/);
    expect(() => parseQuery("x == 'a")).toThrow(/unterminated string at position 6/);
    expect(() => parseQuery('(x > 1')).toThrow(/expected '\)'/);
    expect(() => parseQuery('x > 1 y')).toThrow(/unexpected 'y'/);
    expect(() => parseQuery('x ; 1')).toThrow(/unexpected character ';'/);
  });
});

describe('t.query()', () => {
  test('comparisons, and/or/not, &, |, ~, in, chained comparisons', async () => {
    expect(await v('F.query("g == \'a\' and y > 10").y.tolist()')).toEqual([30, 60]);
    expect(await v("F.query(\"g == 'a' | g == 'c'\").numRows()")).toBe(4);
    expect(await v('F.query("~(g == \'a\')").numRows()')).toBe(4);
    expect(await v("F.query(\"g in ['b', 'c']\").y.tolist()")).toEqual([20, 50, 70]);
    expect(await v("F.query(\"g not in ['b', 'c']\").numRows()")).toBe(4);
    expect(await v("F.query('20 <= y < 50').y.tolist()")).toEqual([20, 30, 40]);
    expect(await v("F.query('x * 10 == y').y.tolist()")).toEqual([10, 20, 40, 60, 70]);
  });
  test('missing values: comparisons false, != true, isna()/notna()', async () => {
    expect(await v("F.query('x > 0').numRows()")).toBe(5);
    expect(await v("F.query('x != 2').numRows()")).toBe(6);
    expect(await v("F.query('x.isna()').y.tolist()")).toEqual([30, 50]);
    expect(await v("F.query('g.notna() and y > 60').y.tolist()")).toEqual([70]);
  });
  test('@variables from the session or local_dict; backtick names; .str and .dt', async () => {
    await h.run('var lim = 45; var keep = ["a"];');
    expect(await v("F.query('y > @lim').numRows()")).toBe(3);
    expect(await v("F.query('g in @keep').numRows()")).toBe(3);
    expect(await v("F.query('y < @m', { local_dict: { m: 25 } }).numRows()")).toBe(2);
    expect(await v("award_data.query('`Award Amount` >= 750000').numRows()")).toBe(3);
    expect(await v('F.query("s.str.lower().str.contains(\'foo\')").numRows()')).toBe(3);
    expect(await v("award_data.query('`Proposal Award Date`.dt.year == 2020').numRows()")).toBe(2);
    expect(await v('award_data.query("`Proposal Award Date` > \'2021-06-15\'").numRows()')).toBe(2);
  });
  test('errors: unknown column with did-you-mean, undefined @name, non-string, never eval', async () => {
    const e = await err("F.query('Y > 1')");
    expect(e.name).toBe('KeyError');
    expect(e.message).toMatch(/Did you mean 'y'/);
    expect((await err("F.query('y > @nothing_here')")).name).toBe('NameError');
    expect((await err('F.query(d => d.y > 1)')).name).toBe('TypeError');
    const evil = await err('F.query("constructor.constructor(\'return globalThis\')()")');
    expect(evil.name).toMatch(/KeyError|ValueError/);
    expect((await err("F.query('y > 1; print(1)')")).name).toBe('ValueError');
  });
  test('keeps the table lazy: a filter mask, not a copy; works on grouped output', async () => {
    expect(await v("F.query('y > 30').groupby('g')['y'].sum().objects()")).toEqual([
      { g: 'a', y: 60 },
      { g: 'b', y: 50 },
      { g: 'c', y: 70 },
    ]);
  });
});
