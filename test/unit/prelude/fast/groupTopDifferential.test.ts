// Differential tests of session 11's Series outliers (docs/benchmarks.md "Series outliers (session
// 11)"): group keys ordered by a dictionary's ranks kept for the session (prelude/fast/dictRank.ts),
// the top-n and null filter of nlargest/nsmallest/sort_values().head() over a plain array of numbers
// (a group-by's sums: prelude/fast/plainNumbers.ts), value_counts of one key column and dictionary
// masks on codes (prelude/fast/valueCounts.ts, prelude/series/typed.ts), number masks counted as
// made (prelude/series/fastCompare.ts), and a date Series filtered by a mask on typed arrays
// (prelude/series/filterNumbers.ts). Each answer is checked against a reference written out
// in plain JavaScript in the guest (a stable comparator sort, one value at a time), or against the
// same expression on a plain-array copy of the table, where no typed path applies.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ColumnData, ColumnarTable } from '../../../../schema/columnar.js';
import { columnar, utf8 } from '../fixture.js';
import { createHarness, type Harness } from '../harness.js';
import { differentialHelpers, diffRuns, install } from './differentialRuns.js';
import { EDGE_TABLES, build } from './randomTables.js';

/** 3,000 groups of text keys (code-unit order: case, accents, astral, ''), sums with ties, -0, NaN and null. */
const GROUPS: ColumnarTable = {
  ...build(
    Array.from({ length: 9001 }, (_, i) => {
      const j = (i * 7919) % 3000;
      const words = ['beta', 'Beta', 'été', 'z😀', '', 'a b'];
      return {
        K1: j % 71 === 0 ? null : `${words[j % words.length]}${j % 9 === 0 ? '' : j}`,
        K2: ['x', 'y', 'z'][i % 3]!,
        Y: j % 4,
        D: j % 37 === 0 ? null : Date.UTC(2019 + (j % 4), j % 12, 1 + (j % 28)) + (j % 5) * 3_600_000,
        V: j % 53 === 0 ? null : j % 59 === 0 ? Number.NaN : j % 47 === 0 ? -0 : (j % 40) * 0.5 - 3,
        A: 'x',
      };
    }),
  ),
  name: 'groups',
};

/** A dictionary that holds one string twice (codes 0 and 2 are both 'b'; the host and concat intern entries, so only this harness hands one over, repeatedDictionary.test.ts has the user paths): no session ranks. */
function repeatedDict(): ColumnData {
  const d = utf8(['b', 'a', 'b', 'c']) as Extract<ColumnData, { kind: 'utf8' }>;
  const codes = Int32Array.from({ length: 4000 }, (_, i) => (i % 41 === 0 ? -1 : i % 4));
  return { kind: 'dict', type: 'string', codes, dictBytes: d.bytes, dictOffsets: d.offsets };
}
const REPEATED: ColumnarTable = {
  ...columnar('award_data', {
    K1: repeatedDict(),
    V: {
      kind: 'float64',
      type: 'number',
      values: Float64Array.from({ length: 4000 }, (_, i) => (i * 13) % 97),
      valid: new Uint8Array(4000).fill(1),
    },
  }),
  name: 'repeated',
};

const TABLES = [...EDGE_TABLES.map((t, i) => ({ ...t, name: `e${i}` })), GROUPS];

/**
 * `__top(T, col, n, desc)`: the first n rows of T (a table of plain arrays) by `col` under
 * nlargest's rules, written out: nulls and NaN dropped, a stable sort by value (ties keep row order).
 */
const REF = `var __top = (T, col, n, desc) => {
  const names = T.columnNames();
  const cols = names.map((c) => T.array(c));
  const k = names.indexOf(col);
  const rows = [];
  for (let i = 0; i < T.numRows(); i++) { const v = cols[k][i]; if (v !== null && v !== undefined && v === v) rows.push(i); }
  rows.sort((a, b) => { const x = cols[k][a], y = cols[k][b]; return x < y ? (desc ? 1 : -1) : x > y ? (desc ? -1 : 1) : a - b; });
  return __dump(aq.table(Object.fromEntries(names.map((c, j) => [c, rows.slice(0, n).map((i) => cols[j][i])]))));
};
true`;

let h: Harness;
beforeAll(async () => {
  h = createHarness({ tables: [...TABLES, REPEATED], limits: { maxResultBytes: 8 << 20 } });
  const DUMP = `var __dump = (x) => {
    if (x instanceof aq.ColumnTable) return JSON.stringify({ names: x.columnNames(), cols: x.columnNames().map((c) => x.array(c).map(__ser)) });
    if (x && typeof x.tolist === 'function' && typeof x.dtype !== 'undefined') return JSON.stringify({ v: x.tolist().map(__ser), i: x.index });
    return __ser(x);
  };`;
  await install(
    h,
    differentialHelpers(
      TABLES.map((t) => t.name),
      DUMP,
    ),
  );
  await install(h, REF);
});
afterAll(() => h.dispose());

describe('Series outliers: typed answers equal the per-value ones', () => {
  test('nlargest / nsmallest / sort_values().head() of a group-by result match a stable sort written out', async () => {
    // every expression is true when the fast answer equals the reference, else it shows both
    const check = (base: string, call: string, col: string, n: number, desc: boolean) =>
      `(X) => { const s = ${base}; const got = __dump(s.${call}); const want = __top(__plain(s), '${col}', ${n}, ${desc}); return got === want || [got.slice(0, 300), want.slice(0, 300)]; }`;
    const grouped = (agg: string) => `X.groupby('K1')['V'].${agg}()`;
    const exprs = [
      check(grouped('sum'), 'nlargest(5)', 'V', 5, true),
      check(grouped('sum'), 'nsmallest(7)', 'V', 7, false),
      check(grouped('mean'), 'nlargest(3)', 'V', 3, true),
      check(grouped('min'), 'nsmallest(40)', 'V', 40, false),
      check(grouped('sum'), 'nlargest(0)', 'V', 0, true),
      check("X.groupby(['K2', 'Y'])['V'].max()", 'nlargest(4)', 'V', 4, true),
      check("X.groupby('D')['V'].sum()", 'nlargest(6)', 'V', 6, true),
    ];
    const bad = await h.run(
      `${JSON.stringify(TABLES.map((t) => t.name))}.flatMap((n) => [${exprs.join(',')}].flatMap((e) => [e(tables[n]), e(__plain(tables[n]))])).filter((x) => x !== true).slice(0, 3)`,
    );
    expect(bad.ok ? bad.value : bad.error).toEqual([]);
    // sort_values then head keeps nulls and NaN (last, or first with na_position), ties in row order
    expect(
      await diffRuns(h, [
        "(X) => { const s = X.groupby('K1')['V'].sum(); const a = s.sort_values({ ascending: false }); return [a.head(5), a.slice(0, 9), s.sort_values('V').head(4), s.sort_values('V', { na_position: 'first' }).head(12)]; }",
        "(X) => { const s = X.groupby('K1')['V'].mean(); return [s.sort_values({ ascending: false }).head(30).tolist(), s.sort_values('V', { ascending: true, na_position: 'first' }).head(3).index]; }",
      ]),
    ).toEqual([]);
  }, 180_000);

  test('orderby(key).slice() of a group-by rollup (session 21): a plain number column, undefined, NaN and -0 where the full sort puts them', async () => {
    // the first n rows of the ordered table against the full sort's first n (objects() sorts every row)
    const check = (agg: string, order: string, n: number) =>
      `(X) => { const o = X.groupby('K1').rollup({ v: ${agg} }).orderby(${order}); const show = (rs) => JSON.stringify(rs.map((r) => [r.K1, __ser(r.v)])); const got = show(o.slice(0, ${n}).objects()), want = show(o.objects().slice(0, ${n})); return got === want || [got.slice(0, 300), want.slice(0, 300)]; }`;
    const exprs = [
      check("op.sum('V')", "aq.desc('v')", 5),
      check("op.sum('V')", "'v'", 40),
      // ascending: the ~56 groups whose sum is undefined first, then the ~50 NaN ones, then numbers
      check("op.sum('V')", "'v'", 120),
      check("op.sum('V')", "'v'", 350),
      check("op.mean('V')", "aq.desc('v')", 300),
      check("op.max('V')", "'v'", 7),
      check("op.min('V')", "aq.desc('v')", 0),
      check("op.sum('Y')", "aq.desc('v')", 12),
      check("op.sum('V')", "aq.desc('v'), 'K1'", 5),
    ];
    const bad = await h.run(
      `${JSON.stringify(TABLES.map((t) => t.name))}.flatMap((n) => [${exprs.join(',')}].flatMap((e) => [e(tables[n]), e(__plain(tables[n]))])).filter((x) => x !== true).slice(0, 3)`,
    );
    expect(bad.ok ? bad.value : bad.error).toEqual([]);
    // a table of plain arrays: null, undefined, NaN and -0 among the numbers (a rollup's sums skip NaN)
    const plain = await h.run(
      'const T = aq.table({ k: Array.from({ length: 3000 }, (_, i) => i), v: Array.from({ length: 3000 }, (_, i) => i % 53 === 0 ? null : i % 59 === 0 ? NaN : i % 61 === 0 ? undefined : i % 47 === 0 ? -0 : ((i * 7919) % 100) - 50) });\n' +
        'const show = (rs) => JSON.stringify(rs.map((r) => [r.k, __ser(r.v)]));\n' +
        "[['v', 5], ['v', 150], [aq.desc('v'), 9], [aq.desc('v'), 370], ['v', 0]].map(([key, n]) => { const o = T.orderby(key); const got = show(o.slice(0, n).objects()), want = show(o.objects().slice(0, n)); return got === want || [got.slice(0, 300), want.slice(0, 300)]; }).filter((x) => x !== true)",
    );
    expect(plain.ok ? plain.value : plain.error).toEqual([]);
  }, 180_000);

  test('group keys and sorts of a dictionary column in code-unit order, many groups, and a dictionary that repeats a string', async () => {
    expect(
      await diffRuns(h, [
        "(X) => [X.groupby('K1')['V'].sum(), X.groupby('K1').size(), X.groupby(['K1', 'K2']).agg({ V: 'count' }), X.groupby('K1').agg({ V: 'sum' }, { dropna: false })]",
        "(X) => [X.filter(X.Y.gt(1)).groupby('K1')['V'].sum(), X.orderby(aq.desc('V')).groupby('K1')['V'].max(), X.groupby('K2')['V'].sum()]",
        "(X) => [X.groupby({ K1: (d) => op.lower(d.K1) })['V'].sum(), X.groupby({ K1: (d) => d.K2 }).size()]",
        "(X) => [X.sort_values('K1').head(20), X.sort_values('K1', { ascending: false, na_position: 'first' }).head(7), X.orderby(aq.desc('K1')).slice(0, 9)]",
      ]),
    ).toEqual([]);
    // the repeated entry: its two codes sort as one string (ties in row order)
    const r = await h.run(
      "const T = tables.repeated, P = __plain(T); [[__dump(T.sort_values('K1').head(50)), __dump(P.sort_values('K1').head(50))], [__dump(T.sort_values('K1', { ascending: false }).head(9)), __dump(P.sort_values('K1', { ascending: false }).head(9))], [__dump(T.orderby('K1').slice(0, 30)), __dump(P.orderby('K1').slice(0, 30))]].filter(([a, b]) => a !== b).map(([a, b]) => [a.slice(0, 300), b.slice(0, 300)])",
    );
    expect(r.ok ? r.value : r.error).toEqual([]);
  }, 180_000);

  test('value_counts of one column counted per code and kept for the session, masks of one dictionary string, counted masks', async () => {
    expect(
      await diffRuns(h, [
        "(X) => [value_counts(X, 'V'), value_counts(X, 'V', { dropna: false }), X.orderby(aq.desc('Y')).value_counts('D', { dropna: false }), X.filter(X.Y.gt(0)).value_counts('K1', { dropna: false }), X.value_counts('K2', { normalize: true, ascending: true })]",
        "(X) => [X.K1.value_counts(), X.filter(X.V.gt(0)).orderby('V').K1.value_counts({ dropna: false }), X[X.K2.eq('x')].K1.value_counts().head(3), X.Y.value_counts({ dropna: false })]",
        // kept for the session: asked again, either dropna, after a result was written into, filtered after
        "(X) => { const a = X.Y.value_counts(); const u = X.V.unique(); a.array('count')[0] = -5; u[0] = 'x'; const k = X.K1.value_counts({ dropna: false }); k.array('count')[0] = -5; return [X.Y.value_counts(), X.Y.value_counts({ dropna: false }), X.Y.value_counts(), X.filter(X.Y.gt(0)).Y.value_counts(), X.K1.value_counts(), X.K1.value_counts({ dropna: false }), X.orderby('V').K1.value_counts(), X.Y.nunique(), X.Y.nunique(), X.V.unique(), X.V.nunique()]; }",
        "(X) => [X.K1.eq('a').tolist(), X.K1.eq('nope').sum(), X.K1.ne('a').tolist(), X.filter(X.Y.gt(0)).orderby('V').K1.eq('😀').tolist(), X.K2.eq('x').sum(), X.K1.isin(['a']).sum()]",
        "(X) => [X.V.gt(0).sum(), X.V.ne(0).sum(), X.V.le(1).mean(), X.Y.ge(2).sum(), X.filter(X.K2.eq('y')).V.lt(0).sum(), X.V.div(2).gt(1).sum(), X.V.gt(0).tolist(), X[X.V.gt(0)].numRows()]",
      ]),
    ).toEqual([]);
  }, 180_000);

  test('a date Series filtered by a mask: values, dt parts, reductions', async () => {
    expect(
      await diffRuns(h, [
        '(X) => { const d = X.D; const f = d.filter(d.dt.year.eq(2020)); return [f.tolist(), f.index, f.dt.month.value_counts().sort_index(), f.max(), f.min(), f.count()]; }',
        "(X) => { const d = X.D; return [d[X.V.gt(0)].tolist(), d.filter(X.K2.eq('x')).dt.day.tolist(), d.filter(d.isna()).tolist(), d.filter(X.Y.ge(0)).sort_values().tolist()]; }",
        "(X) => { const F = X.filter(X.Y.gt(0)).orderby(aq.desc('V')); const d = F.D; const f = d.filter(F.V.gt(-1)); return [f.tolist(), f.index, f.dt.year.tolist(), f.nunique()]; }",
      ]),
    ).toEqual([]);
  }, 180_000);
});
