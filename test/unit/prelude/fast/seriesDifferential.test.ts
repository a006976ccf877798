// Differential tests of the Series layer on typed arrays (prelude/series/typed.ts, fastReduce.ts,
// fastCompare.ts, mapText.ts; describe, pivot_table and concat on codes): every Series expression
// on random host tables (dictionary codes, Float64Arrays, long text read through the page cache)
// must give exactly what it gives on a copy of the table made of plain arrays, where no typed path
// applies (the per-value code). Same values (-0, NaN, null, Dates by time), same order.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ColumnarTable } from '../../../../schema/columnar.js';
import { AWARDS, utf8 } from '../fixture.js';
import { createHarness, type Harness } from '../harness.js';
import { differentialHelpers, diffRuns, install } from './differentialRuns.js';
import { EDGE_TABLES, build, tableArb } from './randomTables.js';

const SEED = Number(process.env.FAST_CHECK_SEED ?? 20261125);
const TEXTS = [
  'Quantum sensing',
  'quantum',
  'QUANTUM dots',
  '',
  'a😀b',
  '𝒳y and 𝒳z',
  'café',
  'lone \uD800 surrogate',
  'Ünïcødé ✓',
  'sensor\nnetwork',
];

/** A random table plus T: long text (utf8, served in pages) with nulls, surrogate pairs and a lone surrogate. */
function withText(t: ColumnarTable, i: number): ColumnarTable {
  const rng = fc.sample(
    fc.array(fc.option(fc.constantFrom(...TEXTS), { nil: null, freq: 5 }), {
      minLength: t.numRows,
      maxLength: t.numRows,
    }),
    { numRuns: 1, seed: SEED + i },
  )[0]!;
  const data = utf8(rng);
  return { ...t, name: `t${i}`, columns: [...t.columns, { name: 'T', type: 'string', kind: 'utf8', data }] };
}

const TABLES = [...EDGE_TABLES, ...fc.sample(tableArb, { numRuns: 24, seed: SEED })].map(withText);

/**
 * Many distinct numbers (past the number hash's first sizes: prelude/fast/numberKeys.ts) whose bits
 * collide in the hash's low slots: integers and multiples of powers of two (zero low words), values
 * one ulp apart, +-0, NaN, +-Infinity and nulls, each repeated a few times at scattered rows.
 */
const SPREAD = [0, -0, Number.NaN, Infinity, -Infinity, 1, 1 + 2 ** -52, -(2 ** 53), 2 ** 53 + 2];
const MANY: ColumnarTable = {
  ...build(
    Array.from({ length: 24003 }, (_, i) => {
      const j = (i * 7919) % 9000; // ~2-3 rows per value, out of order
      const v =
        j % 50 === 0
          ? null
          : j % 4 === 0
            ? j * 1024
            : j % 4 === 1
              ? 1 + j * 2 ** -40
              : j % 4 === 2
                ? SPREAD[j % SPREAD.length]!
                : (j - 4500) * 2 ** 20;
      return { K1: j % 3 ? 'a' : null, K2: ['x', 'y', 'z'][i % 3]!, Y: j % 7, D: null, V: v, A: 'x' };
    }),
  ),
  name: 'many',
};

/**
 * Many groups of text, number and date keys (~8,000 distinct of each over 24,003 rows): strings
 * that differ in case, accents, astral characters and lone surrogates (code-unit order), '' and
 * nulls; NaN and null number keys together (both missing: the key order cannot tell them apart).
 */
const WORDS = ['alpha', 'Alpha', 'ALPHA', 'été', 'ete', 'z😀', 'z\uFFFF', '\uD800x', 'a b', ''];
const MANY_GROUPS: ColumnarTable = {
  ...build(
    Array.from({ length: 24003 }, (_, i) => {
      const j = (i * 7919) % 8000;
      return {
        K1: j % 97 === 0 ? null : `${WORDS[j % WORDS.length]}${j % 13 === 0 ? '' : Math.floor(j / 10)}`,
        K2: ['x', 'y', null][i % 3]!,
        Y: j % 5,
        D: j % 89 === 0 ? null : 1.6e12 + (j % 4001) * 86_400_000,
        V: j % 61 === 0 ? null : j % 67 === 0 ? Number.NaN : (j % 3001) * 0.5 - 700,
        A: 'x',
      };
    }),
  ),
  name: 'manygroups',
};

/**
 * Columns whose only present values are -Infinity (or +Infinity): no value is larger (smaller)
 * than the scan's start, so idxmax (idxmin) is the first present one, as the per-value path gives.
 */
const infinities = (v: number, name: string): ColumnarTable => ({
  ...build([null, Number.NaN, v, null, v, Number.NaN].map((V, i) => ({ K1: 'a', K2: 'x', Y: i, D: null, V, A: 'x' }))),
  name,
});
const NEG_INF = infinities(-Infinity, 'neginf');
const POS_INF = infinities(Infinity, 'posinf');

let h: Harness;
beforeAll(() => {
  h = createHarness({
    tables: [AWARDS, ...TABLES, MANY, MANY_GROUPS, NEG_INF, POS_INF],
    textPages: true,
    limits: { maxResultBytes: 8 << 20 },
  });
});
afterAll(() => h.dispose());

/** The exact dump of a result: a table's values and column order, a Series' values and index. */
const DUMP = `var __dump = (x) => {
  if (x instanceof aq.ColumnTable) return JSON.stringify({ names: x.columnNames(), cols: x.columnNames().map((c) => x.array(c).map(__ser)) });
  if (x && typeof x.tolist === 'function' && typeof x.dtype !== 'undefined') return JSON.stringify({ v: x.tolist().map(__ser), i: x.index }); // not dtype: the host schema's and one inferred from a plain copy may differ
  return __ser(x);
};`;

const diff = (exprs: string[]) => diffRuns(h, exprs);

beforeAll(() =>
  install(
    h,
    differentialHelpers(
      TABLES.map((t) => t.name),
      DUMP,
    ),
  ),
);

/**
 * merge's lookup path against the join it replaces (Arquero's join on plain copies, ordered by the
 * left then the right row, as merge's join path orders): `how`, a right table of distinct keys.
 */
const JOIN_REF = `var __join = (X, R, key, how) => {
  const l = __plain(X).derive({ __l: () => op.row_number() });
  const r = __plain(R).derive({ __r: () => op.row_number() });
  const j = (how === 'left' ? l.join_left(r, [[key], [key]], undefined, { suffix: ['_x', '_y'] }) : l.join(r, [[key], [key]], undefined, { suffix: ['_x', '_y'] })).orderby('__l', '__r');
  return j.select(j.columnNames().filter((c) => c !== '__l' && c !== '__r'));
};
true`;

describe('the Series layer on typed arrays gives the per-value answers', () => {
  test('reductions of number, integer, date and dictionary columns, also filtered and ordered', async () => {
    expect(
      await diff([
        '(X) => [X.V.sum(), X.V.mean(), X.V.min(), X.V.max(), X.V.std(), X.V.var(), X.V.count(), X.V.median(), X.V.quantile(0.25)]',
        '(X) => [X.Y.sum(), X.Y.mean(), X.Y.idxmax(), X.Y.idxmin(), X.Y.argmax(), X.Y.argmin(), X.Y.count()]',
        '(X) => [X.K1.nunique(), X.K1.nunique({ dropna: false }), X.filter(X.Y.gt(1)).K2.nunique(), X.A.nunique({ dropna: false })]',
        "(X) => [X.K1.unique(), X.K2.unique(), X.A.unique(), X.filter(X.Y.gt(1)).K2.unique(), X.orderby(aq.desc('V')).K1.unique(), X.filter(X.K2.ne('x')).orderby('Y').A.unique()]",
        '(X) => [X.D.min(), X.D.max(), X.D.count(), X.K1.count(), X.K1.min(), X.K1.max(), X.T.count()]',
        "(X) => { const F = X.filter(X.Y.gt(0)).orderby(aq.desc('V')); return [F.V.sum(), F.V.mean(), F.V.idxmax(), F.V.std(), F.Y.argmin(), F.V.median()]; }",
        // a plain copy without values has no dtype to infer (it describes as text): columns with values only
        '(X) => X.V.count() ? X.V.describe() : null',
        '(X) => X.D.count() ? X.D.describe() : null',
        "(X) => X.K1.count() ? [X.K1.describe(), X.filter(X.Y.gt(1)).K2.count() ? X.filter(X.Y.gt(1)).K2.describe() : null, X.orderby('V').K2.count() ? X.orderby('V').K2.describe() : null] : null",
        "(X) => X.filter(X.K2.eq('x')).Y.count() ? X.filter(X.K2.eq('x')).Y.describe() : null",
        "(X) => ['K1', 'K2', 'Y', 'D', 'V', 'A', 'T'].every((c) => X[c].count()) ? X.describe() : null",
      ]),
    ).toEqual([]);
  }, 180_000);
  test('idxmax and idxmin of a column whose present values are all -Infinity or all +Infinity', async () => {
    const r = await h.run(
      "['neginf', 'posinf'].map((n) => { const X = tables[n]; const P = __plain(X); return [X.V.idxmax(), X.V.idxmin(), X.V.argmax(), X.V.argmin(), P.V.idxmax(), P.V.idxmin(), P.V.argmax(), P.V.argmin()]; })",
    );
    expect(r.ok && r.value, JSON.stringify(r.error)).toEqual([
      [2, 2, 2, 2, 2, 2, 2, 2],
      [2, 2, 2, 2, 2, 2, 2, 2],
    ]);
  });
  test('and/or/xor of two masks follow the truth table, element by element', async () => {
    // both sides of a differential run combine typed masks: checked against the booleans themselves
    const r = await h.run(
      `${JSON.stringify(TABLES.map((t) => t.name))}.filter((n) => { const X = tables[n]; const a = X.V.gt(0).tolist(); const b = X.Y.gt(1).tolist();
        const same = (m, f) => JSON.stringify(m.tolist()) === JSON.stringify(a.map((x, i) => f(x, b[i])));
        return !(same(X.V.gt(0).and(X.Y.gt(1)), (x, y) => x && y) && same(X.V.gt(0).or(X.Y.gt(1)), (x, y) => x || y) && same(X.V.gt(0).xor(X.Y.gt(1)), (x, y) => x !== y)); })`,
    );
    expect(r.ok && r.value, JSON.stringify(r.error)).toEqual([]);
  });
  test('comparisons and masks combined, counted and used as filters', async () => {
    expect(
      await diff([
        '(X) => [X.V.gt(0).sum(), X.V.ge(0).sum(), X.V.lt(1.5).sum(), X.V.le(-0).sum(), X.V.eq(0).sum(), X.V.ne(0).sum(), X.V.gt(0).mean()]',
        "(X) => [X.Y.eq(2).tolist(), X.K1.eq('a').tolist(), X.K1.ne('a').tolist(), X.K1.gt('b').tolist(), X.D.gt(0).tolist()]",
        "(X) => X.V.gt(0).and(X.K2.eq('x')).or(X.Y.isin([1, 2]).not()).xor(X.K1.isin(['a', 'é']))",
        "(X) => X[X.V.between(-2, 3).and(X.K2.ne('y'))]",
        "(X) => X.filter(X.Y.between(0, 3, 'neither')).orderby('Y').filter(X.orderby('Y').filter(X.Y.between(0, 3, 'neither')).V.gt(0).not())",
        "(X) => X.orderby(aq.desc('V')).V.gt(0).tolist()",
        "(X) => [X.K1.isin(['a', 'null', '😀']).sum(), X.V.isin([0, 1.5]).sum(), X.T.isna().sum()]",
        '(X) => X.V.gt(0).and(X.V.lt(100)).not().sum()',
      ]),
    ).toEqual([]);
  }, 180_000);
  test('string methods on dictionary columns and on long text in pages', async () => {
    expect(
      await diff([
        '(X) => [X.T.str.len().tolist(), X.T.str.len().mean(), X.K1.str.len().tolist(), X.K1.str.len().sum()]',
        "(X) => [X.T.str.contains('quantum', { case: false }).sum(), X.T.str.contains('sens', { regex: false }).tolist(), X.K1.str.contains('a').tolist()]",
        "(X) => [X.T.str.lower().tolist(), X.K1.str.upper().tolist(), X.T.str.startswith('Q').sum(), X.K1.str.endswith(['b', 'I']).tolist()]",
        "(X) => [X.T.str.count('a').tolist(), X.T.str.find('y').tolist(), X.K1.str.strip().value_counts(), X.T.str.len().max()]",
        "(X) => X.filter(X.K2.eq('x')).orderby('V').T.str.contains('😀').tolist()",
        // split and get on codes: once per distinct string, new codes after get
        "(X) => [X.K1.str.split(' ').tolist(), X.K1.str.split('|').str.get(0).tolist(), X.K1.str.split().str.get(-1).value_counts(), X.K1.str.split('a', { n: 1 }).str.get(1).nunique(), X.K1.str.get(0).tolist(), X.K1.str.get(-1).nunique({ dropna: false })]",
        "(X) => { const p = X.K1.str.split('|'); const first = p.tolist(); const g = X.K1.str.split('|').str.get(0); return [first, g.tolist(), g.value_counts(), g.str.get(0).tolist(), g.isna().sum(), g.eq('a').sum(), g.index, X.filter(X.Y.gt(0)).orderby('V').K1.str.split('a').str.get(1).tolist()]; }",
        "(X) => { const p = X.K1.str.split(' '); const v = p.values; if (v.length && v[0]) v[0][0] = 'changed'; return [p.str.get(0).tolist(), p.tolist(), X.K1.str.split(/[|é]/).str.get(1).tolist(), X.T.str.split(' ').str.get(0).nunique(), X.K1.str.split('').str.get(2).tolist()]; }",
      ]),
    ).toEqual([]);
  }, 180_000);
  test('sort_values, nlargest and nsmallest of numbers, dates and dictionary text', async () => {
    expect(
      await diff([
        "(X) => [X.V.sort_values(), X.V.sort_values({ ascending: false, na_position: 'first' }), X.D.sort_values(false)]",
        "(X) => [X.K1.sort_values(), X.K1.sort_values({ ascending: false }), X.filter(X.Y.gt(0)).orderby('V').K2.sort_values()]",
        '(X) => [X.V.nlargest(3), X.V.nsmallest(5), X.Y.nlargest(10), X.D.nsmallest(2), X.K1.nlargest(4), X.V.nlargest(0), X.Y.nlargest(1200), X.Y.nsmallest(40), X.D.nlargest(25), X.Y.nlargest(150)]',
        "(X) => X.filter(X.K2.ne('x')).orderby(aq.desc('Y')).V.nlargest(7)",
        // infinities among the values: -Infinity still fills a top that is not full yet
        '(X) => { const s = X.V.mul(1e306); return [s.nlargest(5), s.nsmallest(5), s.nlargest(400), s.nsmallest(400)]; }',
      ]),
    ).toEqual([]);
  }, 180_000);
  // sort_values on the typed view answers a Series over the sorted rows (series/fastOrder.ts
  // fastSortValues): its values, labels and every typed path that reads it afterwards
  test('a sorted Series: values, labels and the methods that read it, over columns, views and computed Series', async () => {
    const exprs = [
      "(X) => [X.V.sort_values(), X.V.sort_values({ na_position: 'first' }), X.V.sort_values({ ascending: false }), X.V.sort_values(false).index]",
      "(X) => [X.Y.sort_values({ ascending: false, na_position: 'first' }), X.D.sort_values(), X.D.sort_values({ na_position: 'first' }).tolist(), X.K2.sort_values(false)]",
      '(X) => { const s = X.V.sort_values(); return [s.head(3), s.tail(2), s.sum(), s.mean(), s.min(), s.idxmax(), s.idxmin(), s.argmax(), s.count(), s.cumsum().tolist(), s.value_counts(), s.nunique()]; }',
      '(X) => { const s = X.V.sort_values(false); return [s.gt(0).sum(), s[s.gt(0)], s.filter(s.lt(5)), s.iloc[0], s.iloc[s.length - 1], s.nlargest(3), s.nsmallest(2), s.sort_values(), s.sort_values(false), s.sort_index(), s.mul(2).tolist(), s.isna().tolist()]; }',
      "(X) => { const s = X.K1.sort_values(); return [s, s.value_counts(), s.str.upper().tolist(), s.eq('a').sum(), s.nunique(), s.sort_values(false), s.head(4), s.isin(['a', '😀']).tolist(), s.fillna('z').tolist()]; }",
      '(X) => { const s = X.D.sort_values(false); return [s.max(), s.min(), s.head(2), s.nlargest(2), s.isna().sum(), s.dt ? s.dt.year.tolist() : 0]; }',
      "(X) => [X.filter(X.Y.gt(0)).orderby(aq.desc('V')).V.sort_values(), X.filter(X.K2.ne('x')).orderby('Y').K1.sort_values({ ascending: false, na_position: 'first' }), X.slice(1, 3).Y.sort_values().index]",
      "(X) => [X.V.mul(2).sort_values(), X.V.add(X.Y).sort_values({ ascending: false, na_position: 'first' }), X.Y.sub(1).sort_values().sum(), X.V.gt(0).sort_values(), X[X.Y.gt(0)].V.sort_values().index]",
      "(X) => [X.filter(X.Y.gt(1e9)).V.sort_values(), X.slice(0, 1).V.sort_values(false), X.slice(0, 1).K1.sort_values().index, X.V.sort_values().sort_values(false).sort_values({ na_position: 'first' })]",
      '(X) => { const s = X.V.sort_values(); const v = s.values; v[0] = 12345; const i = s.index; i[0] = -1; return [s.head(2), s.index.slice(0, 2), X.V.head(2)]; }',
    ];
    expect(await diff(exprs)).toEqual([]);
    // -0/+0, one-ulp neighbours, +-Infinity, NaN among nulls: the host table against its plain copy
    const r = await h.run(
      `const T = tables.many, P = __plain(T); [${exprs.join(',')}].map((e, i) => [i, __dump(e(T)), __dump(e(P))]).filter(([, a, b]) => a !== b).map(([i, a, b]) => { let k = 0; while (a[k] === b[k]) k++; return [i, a.slice(Math.max(0, k - 150), k + 150), b.slice(Math.max(0, k - 150), k + 150)]; })`,
    );
    expect(r.ok ? r.value : r.error).toEqual([]);
  }, 180_000);
  test('a sorted Series is the stable comparator sort: ties by position, missing values last or first, -0 beside 0', async () => {
    // a reference written here: positions sorted by value (numbers, dates by time, strings by code
    // unit), ties by position, null and NaN at the end (or the start) in position order
    const r = await h.run(`
      const ref = (s, asc, first) => {
        const v = s.tolist(), idx = s.index;
        const miss = (x) => x === null || x === undefined || (typeof x === 'number' && x !== x);
        const key = (x) => (x instanceof Date ? x.getTime() : x);
        const pos = v.map((_, i) => i);
        const present = pos.filter((i) => !miss(v[i])).sort((a, b) => { const x = key(v[a]), y = key(v[b]); const c = x < y ? -1 : x > y ? 1 : 0; return (asc ? c : -c) || a - b; });
        const missing = pos.filter((i) => miss(v[i]));
        const order = first ? [...missing, ...present] : [...present, ...missing];
        return JSON.stringify([order.map((i) => __ser(v[i])), order.map((i) => idx[i])]);
      };
      const got = (s) => JSON.stringify([s.tolist().map(__ser), s.index]);
      const out = [];
      for (const X of [tables.many, tables.manygroups, tables.neginf, tables.posinf, ...${JSON.stringify(TABLES.map((t) => t.name))}.map((n) => tables[n])])
        for (const c of X.columnNames())
          for (const [asc, first] of [[true, false], [false, false], [true, true], [false, true]]) {
            const F = X.filter(X.K2.ne('y')), O = X.orderby(aq.desc('Y'));
            for (const t of [X[c], F[c], O[c], F.orderby('V')[c]])
              if (got(t.sort_values({ ascending: asc, na_position: first ? 'first' : 'last' })) !== ref(t, asc, first)) out.push([c, asc, first, t.length]);
          }
      out.slice(0, 5)`);
    expect(r.ok ? r.value : r.error).toEqual([]);
  }, 180_000);
  test('merge on a lookup table (left and inner) gives the join answers, column names and missing values included', async () => {
    const r = await h.run(JOIN_REF);
    expect(r.ok).toBe(true);
    const lookups = [
      "aq.table({ K2: ['x', 'y'], V: [1, 2], Z: ['p', 'q'] })",
      "aq.table({ K1: ['a', '😀', 'null', 'nope'], n: [1, 2, 3, 4] })",
      "tables.t1.select('K1', 'V', 'T')",
    ];
    const exprs = [];
    for (const [key, R] of [
      ['K2', lookups[0]],
      ['K1', lookups[1]],
      ['K1', lookups[2]],
    ]) {
      for (const how of ['left', 'inner']) {
        exprs.push(
          `(X) => __dump(merge(X, ${R}, { on: '${key}', how: '${how}' })) === __dump(__join(X, ${R}, '${key}', '${how}')) || [__dump(merge(X, ${R}, { on: '${key}', how: '${how}' })).slice(0, 300), __dump(__join(X, ${R}, '${key}', '${how}')).slice(0, 300)]`,
        );
        exprs.push(
          `(X) => { const F = X.filter(X.Y.gt(0)).orderby(aq.desc('V')); return __dump(merge(F, ${R}, { on: '${key}', how: '${how}' })) === __dump(__join(F, ${R}, '${key}', '${how}')) || 'differs'; }`,
        );
      }
    }
    // each expression is true on the host table and on its plain copy when the two paths agree
    expect(await diff(exprs.map((e) => e))).toEqual([]);
    const bad = await h.run(
      `${JSON.stringify(TABLES.map((t) => t.name))}.flatMap((n) => [${exprs.join(',')}].map((e) => e(tables[n]))).filter((x) => x !== true).slice(0, 3)`,
    );
    expect(bad.ok && bad.value).toEqual([]);
  }, 180_000);
  test('pivot_table with and without margins, and concat of host tables', async () => {
    expect(
      await diff([
        "(X) => X.pivot_table({ index: 'K1', columns: 'K2', values: 'V', aggfunc: 'sum', fill_value: 0 })",
        "(X) => X.pivot_table({ index: ['K2', 'Y'], columns: 'A', values: 'V', aggfunc: ['mean', 'count'], margins: true })",
        "(X) => X.pivot_table({ index: 'K1', values: 'Y', aggfunc: 'max' })",
        "(X) => X.filter(X.Y.gt(0)).pivot_table({ index: 'Y', columns: 'D', values: 'V', aggfunc: 'size' })",
        "(X) => crosstab(X, 'K1', 'K2', { margins: true })",
        "(X) => concat([X, X.filter(X.V.gt(0)).orderby('V')])",
        "(X) => { const c = concat([X.filter(X.Y.gt(1)), X.select('K1', 'V')]); return [c.V.sum(), c.K1.value_counts(), c.groupby('K1')['V'].sum(), c.Y.count()]; }",
        '(X) => concat([X, tables.t0, tables.t3]).K2.value_counts()',
      ]),
    ).toEqual([]);
  }, 180_000);
  test('element-wise methods, missing values, apply/map, corr, distinct numbers and selection quantiles', async () => {
    expect(
      await diff([
        // arithmetic with a number and with a column; NaN, -0 and missing values on both sides
        '(X) => [X.V.mul(2).tolist(), X.V.add(-0).tolist(), X.V.div(0).tolist(), X.V.sub(X.Y).tolist(), X.Y.radd(1).sum(), X.V.pow(2).mean()]',
        "(X) => [X.V.div(X.V).tolist(), X.filter(X.K2.eq('x')).orderby('V').V.mul(X.filter(X.K2.eq('x')).orderby('V').Y).tolist()]",
        '(X) => [X.V.fillna(0).tolist(), X.V.fillna(-0).sum(), X.Y.fillna(7).tolist(), X.V.isna().tolist(), X.V.notna().sum(), X.Y.isna().sum(), X.K1.isna().tolist(), X.K1.notna().sum(), X.D.isna().tolist()]',
        '(X) => [X.V.round().tolist(), X.V.round(2).tolist(), X.V.round(-1).nunique(), X.V.abs().tolist(), X.V.clip(-1, 1).tolist(), X.V.clip(null, 0).sum(), X.Y.clip(0).tolist()]',
        '(X) => [X.V.cumsum().tolist(), X.V.cumprod().tolist(), X.V.cummax().tolist(), X.Y.cummin().tolist(), X.V.cumsum().max()]',
        '(X) => [X.V.shift().tolist(), X.V.shift(-2).tolist(), X.V.diff().tolist(), X.Y.diff(2).tolist(), X.V.pct_change().tolist(), X.V.diff(0).tolist()]',
        "(X) => { const F = X.filter(X.Y.ge(0)).orderby(aq.desc('V')); return [F.V.cumsum().tolist(), F.V.diff().abs().sum(), F.V.fillna(1).mul(F.Y).tolist(), F.V.isna().sum()]; }",
        // a function is called once per value, in order, with null for a missing value and NaN kept
        '(X) => { const seen = []; const r = X.V.apply((v) => { seen.push(v); return v === null ? -1 : v * 2; }); return [r.tolist(), r.sum(), seen.map(String)]; }',
        "(X) => [X.V.apply((v) => (v > 0 ? 'pos' : v)).tolist(), X.Y.map((v) => v).tolist(), X.Y.map((v) => (v === null ? undefined : v)).tolist()]",
        "(X) => [X.K1.map({ a: 1, b: 2, '😀': -0 }).tolist(), X.K1.map({ a: 1, b: 2 }).sum(), X.K2.map({ x: 'ex', y: 2 }).tolist(), X.filter(X.Y.gt(0)).K1.map({ a: 5 }).tolist()]",
        // corr and distinct numbers (-0 and 0 are one value)
        "(X) => [corr(X, 'V', 'Y'), X.corr('Y', 'V'), corr(X.filter(X.K2.ne('x')).orderby('V'), 'Y', 'V')]",
        '(X) => [X.V.nunique(), X.Y.nunique(), X.V.mul(0).nunique(), X.filter(X.Y.gt(0)).V.nunique(), X.V.round().nunique()]',
        // selection quantiles: -0 and 0, ties, every q
        '(X) => [X.V.median(), X.V.quantile([0, 0.1, 0.5, 0.9, 1]).tolist(), X.Y.quantile(0.33), X.V.mul(0).median(), X.V.mul(0).quantile([0.2, 0.7]).tolist()]',
        // the column's kept present values are read in place, never reordered: a sum after adds in row order
        '(X) => [X.V.median(), X.V.sum(), X.V.quantile([0.1, 0.9]).tolist(), X.V.mean(), X.Y.median(), X.Y.sum(), X.V.std()]',
        // a zero at an exact position keeps the sign a typed sort gives it
        '(X) => [X.V.mul(0).quantile(0), X.V.mul(0).quantile([1, 0, 0.25]).tolist(), X.V.mul(-0).quantile(0), X.V.clip(0, 0).quantile([0, 1]).tolist()]',
        "(X) => [X.groupby('K2').agg({ V: ['std', 'var', 'median'], Y: ['median', 'std'] }), X.groupby(['K1', 'A'])['V'].median(), X.filter(X.Y.gt(0)).groupby('K2')['V'].std()]",
        // a mask-filtered table's row index (built from the mask bytes)
        "(X) => { const F = X[X.V.between(-2, 3)]; return [F.numRows(), F.V.mean(), F.indices().length, F.K1.tolist(), F.filter(F.Y.gt(0)).V.sum(), F.orderby('V').V.tolist()]; }",
        '(X) => [X.D.dt.year.tolist(), X.D.dt.month.sum(), X.D.dt.day.tolist(), X.D.dt.quarter.tolist(), X.D.dt.dayofweek.tolist(), X.D.dt.dayofyear.tolist(), X.D.dt.hour.sum()]',
        "(X) => [X.orderby(aq.desc('D')).D.dt.year.value_counts(), X.D.dt.month.mean(), X.filter(X.Y.gt(0)).D.dt.year.tolist()]",
        // a part no kept getter answers, on an ordered and on a filtered column (dtAccessor.ts partLoop's row map)
        "(X) => [X.orderby(aq.desc('D')).D.dt.dayofyear.tolist(), X.filter(X.Y.gt(0)).D.dt.dayofyear.tolist()]",
      ]),
    ).toEqual([]);
  }, 300_000);
  test('element-wise chains (lazy until read) give the eager answers, read any way', async () => {
    expect(
      await diff([
        // the fused reductions: sum, mean, count, min, max, std, median, quantile, nunique
        '(X) => { const c = X.V.mul(2).add(1); return [c.sum(), c.mean(), c.count(), c.min(), c.max(), c.std(), c.median(), c.quantile([0.1, 0.9]).tolist(), c.nunique()]; }',
        '(X) => [X.V.round(-1).nunique(), X.V.fillna(0).sum(), X.V.fillna(-0).min(), X.V.div(0).max(), X.V.div(0).sum(), X.V.sub(X.Y).mean(), X.V.abs().clip(0.5, 2).median()]',
        '(X) => [X.V.pow(0).sum(), X.V.pow(0).count(), X.V.rsub(1).rdiv(2).sum(), X.V.floordiv(3).mod(2).nunique(), X.Y.radd(1).rmul(-1).max(), X.V.mod(X.Y).sum()]',
        // round keeps NaN as a value; a step after it drops it; fill after a NaN-making step
        '(X) => [X.V.div(X.V).round().tolist(), X.V.div(X.V).round().fillna(9).tolist(), X.V.div(0).mul(0).fillna(5).tolist(), X.V.div(X.V).round().count(), X.V.div(X.V).round().add(1).tolist()]',
        // read every other way: values, positions, printing, dtype, index, a mask, a new column
        '(X) => { const c = X.V.mul(-1).add(0.5).abs(); return [c.tolist(), c.get(0), c.iloc[1], c.index, c.dtype, c.length, c.gt(1).sum(), c.isna().tolist(), c.head(3).tolist(), String(c.values.length)]; }',
        '(X) => { const c = X.Y.clip(null, 1).sub(X.V); return [c.sum(), c.tolist(), c.cumsum().tolist(), c.sort_values().tolist(), c.value_counts(), c.idxmax(), c.sum()]; }',
        "(X) => { const T = X.select('V', 'Y'); T['W'] = T.V.mul(3).add(T.Y); return [T.W.tolist(), T.W.sum(), T.derive({ z: (d) => d.W * 2 }).array('z')]; }",
        // filtered and ordered tables: the chain reads the visible rows
        "(X) => { const F = X.filter(X.Y.ge(0)).orderby(aq.desc('V')); const c = F.V.fillna(1).mul(F.Y).add(2); return [c.sum(), c.tolist(), c.max(), c.nunique(), F.V.round(1).mean()]; }",
        // diff and pct_change start a chain: both sides present and not NaN; any periods
        '(X) => [X.V.diff().abs().sum(), X.V.diff().tolist(), X.V.diff(2).max(), X.V.diff(-1).tolist(), X.V.diff(0).count(), X.Y.pct_change().tolist(), X.Y.pct_change().mean(), X.V.diff().fillna(0).tolist()]',
        "(X) => { const F = X.filter(X.K2.ne('x')).orderby('Y'); return [F.V.diff().sum(), F.V.diff(3).tolist(), F.Y.pct_change(-2).abs().nunique(), F.V.mul(2).diff().tolist()]; }",
        // a base holding infinities (a chain read once, then lagged): Infinity - Infinity is a present NaN
        '(X) => { const c = X.V.div(0); c.tolist(); const d = c.diff(); return [d.tolist(), d.count(), d.fillna(7).tolist(), c.pct_change().tolist(), c.diff().abs().sum(), d.isna().sum()]; }',
        // mode of dictionary text (codes counted), also filtered; cumsum of numbers
        '(X) => [X.K1.mode(), X.K2.mode(), X.filter(X.Y.gt(0)).K1.mode(), X.V.mode(), X.V.cumsum().tolist(), X.filter(X.Y.gt(0)).Y.cumsum().max()]',
        // s[mask] / s.filter(mask) on numbers: values, missing, labels, dtype, a reduction after it
        "(X) => { const F = X.filter(X.K2.ne('x')).orderby('Y'); const a = X.V[X.V.gt(0)]; const b = F.Y.filter(F.V.isna()); return [a.tolist(), a.index, a.sum(), b.tolist(), b.index, b.mean(), X.V[X.V.mul(2).add(1).ge(1)].tolist(), X.V.mul(2)[X.Y.notna()].tolist()]; }",
        // round's half-to-even at the edges: ties, -0 from small negatives, huge values
        '(X) => [0.5, -0.5, 1.5, 2.5, -2.5, -0.3, 0.49999999999999994, -0.49999999999999994, 1e300, 4503599627370495.5, 123.455, -0.05].map((c) => [0, 1, 2, -1, -3].map((d) => X.V.mul(0).add(c).round(d).tolist()))',
        // the running methods as chain steps: the run restarts with every pass, shared steps included
        "(X) => { const c = X.V.cumsum(); return [c.mul(2).sum(), c.sum(), c.max(), c.tolist(), X.V.mul(2).cumsum().tolist(), X.V.cummax().add(1).min(), X.Y.fillna(1).cumprod().tolist(), X.V.div(X.V).cummin().tolist(), X.filter(X.Y.gt(0)).orderby('V').V.cumsum().nunique()]; }",
        // a chain read after its base table changed stays the eager one (the base is read when the step is made)
        '(X) => { const c = X.V.add(1); const s1 = c.sum(); const d = c.mul(2); return [s1, d.sum(), c.sum(), d.tolist(), c.tolist()]; }',
      ]),
    ).toEqual([]);
  }, 300_000);
  test("fillna then a reduction (read from the column in place) gives the filled column's answers", async () => {
    // fill values whose additions round differently when moved (0.1, 1e300), zeros of both signs
    // against present zeros (min/max keep the first), infinities; whole, filtered and ordered tables
    const reduce =
      '[f.sum(), f.mean(), f.count(), f.min(), f.max(), f.std(), f.var(), f.median(), f.sum() === f.tolist().reduce((a, b) => a + b, 0)]';
    const fills = '[0, -0, 7, -1.5, 0.1, 1e300, Infinity, -Infinity]';
    expect(
      await diff([
        `(X) => ${fills}.map((c) => { const f = X.V.fillna(c); return ${reduce}; })`,
        `(X) => ${fills}.map((c) => { const f = X.Y.fillna(c); return ${reduce}; })`,
        `(X) => { const F = X.filter(X.K2.ne('x')).orderby(aq.desc('Y')); return ${fills}.map((c) => { const f = F.V.fillna(c); return ${reduce}; }); }`,
        `(X) => { const F = X.filter(X.V.isna()); return ${fills}.map((c) => { const f = F.V.fillna(c); return ${reduce}; }); }`,
        // only zeros and missing values: which zero comes first decides min and max
        "(X) => { const F = X[X.V.eq(0).or(X.V.isna())]; return [F, F.orderby(aq.desc('Y')), F.orderby('V')].flatMap((G) => [0, -0].flatMap((c) => [G.V.fillna(c).min(), G.V.fillna(c).max()])); }",
      ]),
    ).toEqual([]);
  }, 300_000);
  test('groupby(...)[col].value_counts() gives what the per-group Map and comparator sorts gave', async () => {
    // the reference: the code groupValueCounts.ts replaced (a Map, two spreads and a sort per
    // group; groups sorted by a copy of frame/groupAgg.ts compareKeys), over the same partitions
    const ref = `var __vcRef = (t, keys, col, opts = {}) => {
      const isNull = (v) => v === null || v === undefined || (typeof v === 'number' && v !== v);
      const rank = (v) => typeof v === 'boolean' ? 0 : typeof v === 'number' ? 1 : v instanceof Date ? 2 : typeof v === 'string' ? 3 : 4;
      const cmpV = (a, b) => { const ta = rank(a), tb = rank(b); if (ta !== tb) return ta - tb; const x = ta === 2 ? a.getTime() : a, y = tb === 2 ? b.getTime() : b; return x < y ? -1 : x > y ? 1 : 0; };
      const cmpK = (a, b) => { for (let i = 0; i < a.length; i++) { const nx = isNull(a[i]), ny = isNull(b[i]); if (nx || ny) { if (nx !== ny) return nx ? 1 : -1; continue; } const c = cmpV(a[i], b[i]); if (c) return c; } return 0; };
      const G = t.groupby(keys);
      const g = G.groups();
      const c = G.column(col);
      const parts = G.partitions().filter((p) => p.length > 0).map((rows) => ({ rows, key: keys.map((_, k) => g.get[k](rows[0])) }))
        .filter((p) => !p.key.some(isNull)).sort((a, b) => cmpK(a.key, b.key));
      const out = [...keys, col, 'n'].map(() => []);
      for (const p of parts) {
        const counts = new Map();
        for (const r of p.rows) { const v = c.at(r); if (isNull(v)) continue; const k = v instanceof Date ? v.getTime() : v; const e = counts.get(k); if (e) e.n++; else counts.set(k, { v, n: 1 }); }
        const total = [...counts.values()].reduce((a, e) => a + e.n, 0);
        for (const e of [...counts.values()].sort((a, b) => (opts.ascending ? a.n - b.n : b.n - a.n))) {
          keys.forEach((_, j) => out[j].push(p.key[j]));
          out[keys.length].push(e.v);
          out[keys.length + 1].push(opts.normalize ? e.n / total : e.n);
        }
      }
      return JSON.stringify(out.map((a) => a.map(__ser)));
    };
    var __vc = (t, keys, col, opts) => { const r = t.groupby(keys)[col].value_counts(opts); return JSON.stringify(r.columnNames().map((c) => r.array(c).map(__ser))); };
    var __vcSame = (t, keys, col, opts) => __vc(t, keys, col, opts) === __vcRef(t, keys, col, opts) || [__vc(t, keys, col, opts).slice(0, 300), __vcRef(t, keys, col, opts).slice(0, 300)];
    true`;
    await install(h, ref);
    const cases = [
      ["['K1']", "'V'"],
      ["['K1']", "'K2'"],
      ["['K2']", "'K1'"],
      ["['D']", "'Y'"],
      ["['V']", "'K2'"],
      ["['K2', 'Y']", "'V'"],
      ["['K1', 'D']", "'A'"],
      ["['Y']", "'D'"],
    ];
    const exprs = cases.flatMap(([k, c]) => [
      `(X) => __vcSame(X, ${k}, ${c}) === true && __vcSame(X, ${k}, ${c}, { normalize: true }) === true && __vcSame(X, ${k}, ${c}, { ascending: true })`,
      `(X) => { const F = X.filter(X.Y.gt(0)).orderby(aq.desc('V')); return __vcSame(F, ${k}, ${c}); }`,
    ]);
    const bad = await h.run(
      `${JSON.stringify(TABLES.map((t) => t.name).concat('many', 'manygroups'))}.flatMap((n) => [${exprs.join(',')}].map((e) => e(tables[n]))).filter((x) => x !== true).slice(0, 3)`,
    );
    expect(bad.ok && bad.value, JSON.stringify(bad.error)).toEqual([]);
  }, 300_000);
  test('a number column or a pending chain compared with a number (missing and NaN as the per-value path)', async () => {
    const ops = "['eq', 'ne', 'lt', 'le', 'gt', 'ge']";
    const xs = '[0, -0, 1, -1.5, 2 ** 53, Infinity]';
    expect(
      await diff([
        `(X) => ${ops}.map((m) => ${xs}.map((x) => [X.V[m](x).tolist(), X.Y[m](x).sum(), X.V.div(2)[m](x).tolist()]))`,
        // round keeps NaN as a present value; diff and cumsum start or run a chain
        `(X) => ${ops}.map((m) => ${xs}.map((x) => [X.V.div(X.V).round()[m](1).tolist(), X.V.diff()[m](x).tolist(), X.Y.fillna(0).cumsum()[m](x).sum(), X.V.mul(X.Y)[m](x).tolist()]))`,
        `(X) => { const F = X.filter(X.K2.ne('x')).orderby(aq.desc('Y')); return ${ops}.map((m) => ${xs}.map((x) => [F.V[m](x).tolist(), F.V.sub(1).abs()[m](x).tolist(), F[F.V.fillna(0)[m](x)].numRows()])); }`,
      ]),
    ).toEqual([]);
  }, 300_000);
  test('value_counts of numbers: integers over a narrow span counted per value, others hashed', async () => {
    const vc = (s: string) =>
      `[${s}.value_counts(), ${s}.value_counts({ dropna: false }), ${s}.value_counts({ normalize: true }), ${s}.value_counts().sort_index(), ${s}.unique()]`;
    expect(
      await diff([
        `(X) => [${vc('X.Y')}, ${vc('X.V')}, ${vc('X.V.round()')}, ${vc('X.Y.sub(3)')}]`,
        // -0 among zeros (the key's value is its first occurrence), halves, a wide span, infinities
        `(X) => [${vc('X.V.mul(0)')}, ${vc('X.V.round().mul(-1)')}, ${vc('X.Y.div(2)')}, ${vc('X.Y.mul(1e6)')}, ${vc('X.V.div(0)')}]`,
        `(X) => { const F = X.filter(X.K2.ne('x')).orderby(aq.desc('V')); return [${vc('F.Y')}, ${vc('F.V.round()')}]; }`,
      ]),
    ).toEqual([]);
  }, 300_000);
  test('isna/notna counted without their bytes, and read every other way', async () => {
    expect(
      await diff([
        '(X) => [X.V.isna().sum(), X.V.notna().sum(), X.V.isna().mean(), X.V.notna().mean(), X.V.isna().count(), X.Y.notna().sum(), X.D.isna().sum()]',
        '(X) => { const m = X.V.isna(); const k = m.sum(); return [k, m.tolist(), m.sum(), X[m].numRows(), X[X.V.notna()].V.sum(), m.not().sum(), m.and(X.Y.isna()).sum()]; }',
        "(X) => [X.V.mul(2).isna().sum(), X.V.div(X.Y).notna().sum(), X.V.div(X.Y).isna().tolist(), X.filter(X.Y.gt(0)).V.isna().sum(), X.orderby(aq.desc('Y')).V.notna().tolist()]",
      ]),
    ).toEqual([]);
  }, 180_000);
  test('query comparisons on codes and typed arrays give the per-row answers', async () => {
    const q = (expr: string) => `(X) => X.query(${JSON.stringify(expr)})`;
    expect(
      await diff([
        q("K1 == 'a' and V >= 0"),
        q('V < 1.5 or Y > 2'),
        q("K2 != 'x'"),
        q('not (V <= 0)'),
        q("K1 in ['a', '😀', 'null', ''] and not K2 == 'y'"),
        q("K1 not in ['a'] or V == 0"),
        q('V == 0 and V != -0.0'),
        q('V != 0'),
        q("V > 'abc' or K1 > 'b'"),
        q("K1 <= 'Phase I' and Y >= -1"),
        q('Y == 2 or V > -1e6 and V < 1e6'),
        q("D > '1975-01-01' and A == 'x'"),
        "(X) => X.filter(X.Y.gt(0)).orderby(aq.desc('V')).query(\"V > 0 or K1 == 'b'\")",
        "(X) => X.filter(X.K2.ne('x')).query('Y != 1 and Y in [0, 2, 3]').V.tolist()",
        "(X) => X.query(\"K2 == 'x'\").query('V >= 0').numRows()",
      ]),
    ).toEqual([]);
  }, 180_000);
  test('crosstab and pivot_table counts and sums on codes, named functions left alone', async () => {
    expect(
      await diff([
        "(X) => [crosstab(X, 'K1', 'K2'), crosstab(X, 'K2', 'Y'), crosstab(X, 'K1', 'K2', { normalize: 'index' })]",
        "(X) => [crosstab(X.filter(X.Y.gt(0)), 'K2', 'K1'), crosstab(X, 'K1', 'A', { values: 'V', aggfunc: 'mean' })]",
        "(X) => X.pivot_table({ index: 'K1', columns: 'K2', values: 'T', aggfunc: 'size', fill_value: 0 })",
        "(X) => X.pivot_table({ index: 'K2', columns: 'K1', values: 'V', aggfunc: ['sum', 'count', 'min'], margins: true })",
        "(X) => X.pivot_table({ index: 'K2', columns: 'A', values: 'V', aggfunc: function sum(vs) { return vs.length; } })",
        "(X) => X.pivot_table({ index: 'K1', columns: 'K2', values: 'V', aggfunc: function size(vs) { return vs.filter((v) => v !== null).length; } })",
      ]),
    ).toEqual([]);
  }, 180_000);
  test('slice keeps the rows an array slice keeps (bitmap filled by words, row index given), and concat of slices', async () => {
    // each expression compares the slice with the arrays sliced, so it is true on both paths when right
    const SLICE_REF = `var __sliced = (X, s, e) => {
      const a = X.slice(s, e);
      const want = __dump(aq.table(Object.fromEntries(X.columnNames().map((c) => [c, X.array(c).slice(s, e)]))));
      const rows = X.indices().slice(s, e);
      const sorted = X.isOrdered() ? [...rows].sort((x, y) => x - y) : [...rows];
      return __dump(a) === want && a.numRows() === rows.length && JSON.stringify([...a.indices(false)].sort((x, y) => x - y)) === JSON.stringify(sorted) || [s, e, __dump(a).slice(0, 200), want.slice(0, 200)];
    };
    true`;
    const r = await h.run(SLICE_REF);
    expect(r.ok).toBe(true);
    const bounds =
      '[[0, 0], [0, 1], [0, 31], [1, 32], [31, 33], [32, 64], [5, 100], [33, 1300], [0, 2000], [-40, -3], [-5, 10], [7, 1e9], [1e9, 2e9], [64, 96], [3, 2]]';
    const checks = [
      `(X) => ${bounds}.map(([s, e]) => __sliced(X, s, e)).filter((x) => x !== true)`,
      `(X) => ${bounds}.map(([s, e]) => __sliced(X.filter(X.Y.ge(0)), s, e)).filter((x) => x !== true)`,
      `(X) => ${bounds}.map(([s, e]) => __sliced(X.orderby(aq.desc('V')), s, e)).filter((x) => x !== true)`,
      '(X) => { const h = Math.floor(X.numRows() / 2); return __dump(concat([X.slice(0, h), X.slice(h)])) === __dump(X) ? [] : [h]; }',
    ];
    // on the host tables and on their plain copies alike (both take this slice)
    const bad = await h.run(
      `${JSON.stringify(TABLES.map((t) => t.name))}.flatMap((n) => [${checks.join(',')}].flatMap((e) => [e(tables[n]), e(__plain(tables[n]))])).flat().slice(0, 3)`,
    );
    expect(bad.ok && bad.value).toEqual([]);
    expect(
      await diff([
        '(X) => { const h = Math.floor(X.numRows() / 2); const c = concat([X.slice(0, h), X.slice(h)]); return [c.numRows(), c.K1.value_counts(), c.V.sum(), X.slice(3, 40).V.tolist(), X.head(33).K1.tolist()]; }',
      ]),
    ).toEqual([]);
  }, 180_000);
  test('value_counts of numbers, drop_duplicates on codes, isna/notna tables counted', async () => {
    expect(
      await diff([
        '(X) => [X.V.value_counts(), X.Y.value_counts({ dropna: false }), X.V.value_counts({ normalize: true, ascending: true }), X.V.value_counts({ sort: false, dropna: false })]',
        "(X) => [X.orderby(aq.desc('V')).V.value_counts(), X.filter(X.K2.eq('x')).Y.value_counts(), X.V.mul(0).value_counts({ dropna: false }), X.V.round().value_counts().head(3)]",
        "(X) => [X.K1.value_counts(), value_counts(X, ['K1', 'K2']), X.value_counts('Y', { ascending: true })]",
        "(X) => [X.drop_duplicates('K1'), X.drop_duplicates(['K2', 'Y'], { keep: 'last' }), X.drop_duplicates('V', { keep: false }), X.drop_duplicates(['D', 'K1', 'V'])]",
        "(X) => [X.orderby('V').drop_duplicates('K2'), X.filter(X.Y.gt(0)).drop_duplicates(['V'], { keep: 'last' }).numRows(), drop_duplicates(X, { subset: ['D'], keep: false })]",
        "(X) => [X.dropna({ subset: ['V', 'K1'] }), dropna(X, { subset: ['V', 'T'], how: 'all' }).numRows(), X.filter(X.K2.eq('x')).orderby('V').dropna('Y'), X.dropna().numRows(), X.dropna(['D']).numRows()]",
        "(X) => [X.isna().sum(), X.notna().sum(), X.isna().mean(), isna(X.filter(X.Y.gt(0))).sum(), notna(X.orderby('V')).mean(), notna(X.filter(X.Y.gt(0))).sum(), X.isna().select('V', 'T').sum(), X.isna().sum('T')]",
      ]),
    ).toEqual([]);
  }, 300_000);
  test('distinct numbers past the first sizes of the hash, with colliding bits: value_counts, nunique, unique, group keys', async () => {
    const exprs = [
      '(X) => [X.V.value_counts(), X.V.value_counts({ dropna: false, sort: false }), X.V.value_counts({ normalize: true, ascending: true })]',
      '(X) => [X.V.nunique(), X.V.nunique({ dropna: false }), X.V.unique(), X.V.mul(-1).nunique(), X.V.div(X.V).round().nunique(), X.V.mul(0).unique()]',
      "(X) => [X.filter(X.K2.ne('x')).orderby(aq.desc('Y')).V.value_counts({ dropna: false }), X.filter(X.K2.eq('y')).V.unique(), X.filter(X.Y.gt(2)).V.nunique()]",
      "(X) => X.drop_duplicates('V')",
      "(X) => X.drop_duplicates(['V', 'K1'], { keep: 'last' }).numRows()",
      "(X) => value_counts(X, ['V', 'K2'])",
      "(X) => X.groupby('V')['Y'].sum()",
      "(X) => X.groupby(['K2', 'V']).size()",
      // dropna's bitmap filled a word at a time (24,003 rows: whole words and a partial last one)
      "(X) => [X.dropna('V'), X.orderby(aq.desc('Y')).dropna(['V', 'K1']), X.dropna({ subset: ['V', 'K1'], how: 'all' }).numRows(), X.slice(5).dropna('K1').V.sum()]",
      // ranks selected in a column's kept packed values are kept for the session (fast/presentValues.ts
      // keptRanks): asked again, alone and beside ranks not asked before, through every reader
      "(X) => [X.V.median(), X.V.quantile([0.25, 0.5, 0.75]).tolist(), X.V.median(), X.V.quantile(0.5), X.V.quantile([0.1, 0.9, 0.25]).tolist(), X.V.quantile(0.25), X.V.describe(), X.rollup({ m: op.median('V'), q: op.quantile('V', 0.75) }).objects(), X.Y.median(), X.Y.quantile([0, 1, 0.5]).tolist(), X.V.mul(2).median(), X.V.quantile(0.9), X.filter(X.Y.gt(2)).V.median()]",
      // neighbouring ranks: a batch, the same ranks one by one, then every rank one further on
      '(X) => { const qs = Array.from({ length: 41 }, (_, i) => i / 40); const one = 1 / (X.V.count() - 1); return [X.V.quantile(qs).tolist(), qs.map((q) => X.V.quantile(q)), X.V.quantile(qs.map((q) => Math.min(1, q + one))).tolist(), qs.map((q) => X.V.quantile(Math.min(1, q + 2 * one)))]; }',
    ];
    // the host table against its plain copy, as diff() does for the tables above
    const r = await h.run(
      `const T = tables.many, P = __plain(T); [${exprs.join(',')}].map((e, i) => [i, __dump(e(T)), __dump(e(P))]).filter(([, a, b]) => a !== b).map(([i, a, b]) => { let k = 0; while (a[k] === b[k]) k++; return [i, a.slice(Math.max(0, k - 150), k + 150), b.slice(Math.max(0, k - 150), k + 150)]; })`,
    );
    expect(r.ok ? r.value : r.error).toEqual([]);
    // groups of one number key come back in key order (both copies take that sort: checked directly)
    const order = await h.run(
      "const T = tables.many; [T, __plain(T), T.filter(T.Y.gt(2))].map((X) => { const g = X.groupby('V').size(); const k = g.array('V'); return [k.length === X.V.nunique(), k.every((v, i) => i === 0 || k[i - 1] < v), g.array('size').reduce((a, b) => a + b, 0) === X.V.count()]; })",
    );
    expect(order.ok ? order.value : order.error).toEqual([
      [true, true, true],
      [true, true, true],
      [true, true, true],
    ]);
    const size = await h.run('[tables.many.V.nunique(), tables.many.numRows()]');
    expect(size.ok && (size.value as number[])[0]).toBeGreaterThan(5000);
  }, 180_000);
  test('many groups of text, number, date and two keys: agg, size, Series aggregations, dropna and sort options', async () => {
    const exprs = [
      "(X) => [X.groupby('K1').size(), X.groupby('K1').agg({ V: 'sum' }), X.groupby('K1')['V'].sum(), X.groupby('K1')['V'].mean(), X.groupby('K1')['V'].count()]",
      "(X) => [X.groupby('K1')['K2'].nunique(), X.groupby('K1').agg({ V: ['min', 'max', 'median', 'first'], D: 'last' }), X.groupby('K1')['V'].std()]",
      "(X) => [X.groupby('V').size(), X.groupby('V').agg({ Y: 'sum' }, { dropna: false }), X.groupby('D')['V'].sum(), X.groupby('D').size()]",
      "(X) => [X.groupby(['K1', 'K2']).size(), X.groupby(['K2', 'K1'])['V'].mean(), X.groupby(['K1', 'Y']).agg({ V: 'sum', n: 'size' }), X.groupby(['V', 'K2']).size()]",
      "(X) => [X.groupby('K1').agg({ V: 'sum' }, { dropna: false }), X.groupby(['K2', 'K1']).agg({ V: 'mean' }, { dropna: false }), X.groupby(['V', 'K2']).agg({ Y: 'max' }, { dropna: false })]",
      "(X) => [X.groupby('K1').agg({ V: 'sum' }, { sort: false }), X.groupby(['K1', 'D']).agg({ V: 'count' }, { sort: false, dropna: false })]",
      "(X) => [X.filter(X.Y.gt(1)).groupby('K1').size(), X.orderby(aq.desc('V')).groupby(['K1', 'K2'])['V'].sum(), X.filter(X.K2.eq('x')).orderby('K1').groupby('V').size()]",
    ];
    const r = await h.run(
      `const T = tables.manygroups, P = __plain(T); [${exprs.join(',')}].map((e, i) => [i, __dump(e(T)), __dump(e(P))]).filter(([, a, b]) => a !== b).map(([i, a, b]) => { let k = 0; while (a[k] === b[k]) k++; return [i, a.slice(Math.max(0, k - 150), k + 150), b.slice(Math.max(0, k - 150), k + 150)]; })`,
    );
    expect(r.ok ? r.value : r.error).toEqual([]);
    const size = await h.run(
      "[tables.manygroups.K1.nunique(), tables.manygroups.V.nunique(), tables.manygroups.groupby('K1', 'K2').size().numRows()]",
    );
    expect(size.ok && (size.value as number[]).every((x) => x > 2000)).toBe(true);
  }, 180_000);
});
