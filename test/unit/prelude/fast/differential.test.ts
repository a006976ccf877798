// Differential tests of the fast paths (prelude/fast/): every verb call on random host tables
// (dictionary codes, Float64Arrays: the fast paths) must give exactly what the same call gives on a
// copy of the table made of plain arrays (which no fast path accepts: Arquero's and the prelude's
// own code). Same values (-0, NaN, undefined vs null, Dates by time), same column order, same row
// order, same grouping.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AWARDS } from '../fixture.js';
import { createHarness, type Harness } from '../harness.js';
import { differentialHelpers, diffRuns, install } from './differentialRuns.js';
import { EDGE_TABLES, tableArb } from './randomTables.js';

const SEED = Number(process.env.FAST_CHECK_SEED ?? 20261122);
const TABLES = [...EDGE_TABLES, ...fc.sample(tableArb, { numRuns: 36, seed: SEED })].map((t, i) => ({
  ...t,
  name: `t${i}`,
}));

let h: Harness;
beforeAll(() => {
  h = createHarness({ tables: [AWARDS, ...TABLES], limits: { maxResultBytes: 8 << 20 } });
});
afterAll(() => h.dispose());

/** The exact dump of a result: a table with its values, column and row order and grouping. */
const DUMP = `var __dump = (x) => {
  if (!(x instanceof aq.ColumnTable)) return __ser(x);
  const names = x.columnNames();
  const g = x.groups();
  return JSON.stringify({ names, rows: x.numRows(), cols: names.map((c) => x.array(c).map(__ser)),
    groups: g && { names: g.names, size: g.size, rows: g.rows, keys: Array.from(x.indices(), (r) => g.keys[r]), parts: x.partitions().map((p) => Array.from(p)) } });
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

describe('fast paths give exactly the plain path answers on random tables', () => {
  test('op.distinct of a dictionary column in one group counts null once, as a Set of its values', async () => {
    // the one-group code scan of rollupDistinct.ts; K1 holds nulls in the edge tables
    const r = await h.run(
      `${JSON.stringify(TABLES.map((t) => t.name))}.map((n) => { const X = tables[n]; const F = X.filter((d) => d.Y !== 1); return [X.rollup({ k: op.distinct('K1') }).get('k', 0) - new Set(X.array('K1')).size, F.numRows() ? F.rollup({ k: op.distinct('K1') }).get('k', 0) - new Set(F.array('K1')).size : 0]; }).flat().filter((d) => d !== 0).length`,
    );
    expect(r.ok && r.value, JSON.stringify(r.error)).toBe(0);
  });
  test('groupby keys: 1-3 keys of dictionary, integer and date type, after filters and orders', async () => {
    expect(
      await diff([
        "(X) => X.groupby('K1')",
        "(X) => X.groupby('K1', 'K2')",
        "(X) => X.groupby(['D', 'K1', 'Y'])",
        "(X) => X.groupby('V')",
        "(X) => X.filter((d) => d.Y > 0).groupby('K2', 'K1')",
        "(X) => X.orderby('V').groupby('Y')",
        "(X) => X.groupby('K1').groupby('A')",
        "(X) => X.groupby('K1', 'Y', 'K1')",
        "(X) => X.groupby('Nope')",
        "(X) => X.groupby('K1', 'K2', 'Y', 'D')",
      ]),
    ).toEqual([]);
  }, 180_000);
  test('rollup and count with typed accumulators', async () => {
    expect(
      await diff([
        "(X) => X.groupby('K1').rollup({ s: op.sum('V'), m: op.mean('V'), n: op.count(), mn: op.min('V'), mx: op.max('V'), sd: op.stdev('V'), vp: op.variancep('V'), md: op.median('V'), q: op.quantile('V', 0.25), va: op.valid('K2'), iv: op.invalid('V'), av: op.average('Y') })",
        "(X) => X.groupby('K1', 'Y').rollup({ s: (d) => op.sum(d.V), c: 'op.count()', w: (d) => op.sum(d.V) / op.count() })",
        "(X) => X.groupby('D', 'K2', 'K1').count()",
        "(X) => X.groupby('K2').count({ as: 'n' })",
        "(X) => X.rollup({ s: op.sum('V'), m: op.mean('V'), n: op.count(), sd: op.stdevp('V'), v: op.variance('Y') })",
        // one group (fast/rollupOne.ts): every kind on locals, unfiltered, filtered, ordered, empty
        "(X) => X.rollup({ s: op.sum('V'), a: op.average('V'), va: op.valid('V'), iv: op.invalid('V'), kv: op.valid('K1'), ki: op.invalid('K2'), sd: op.stdev('V'), vr: op.variancep('Y'), n: op.count() })",
        "(X) => X.filter((d) => d.Y > 0).rollup({ s: op.sum('V'), m: op.mean('V'), n: op.count(), kv: op.valid('K1'), sd: op.stdevp('V'), mn: op.min('V'), mx: op.max('Y') })",
        "(X) => X.orderby(aq.desc('V'), 'Y').rollup({ s: op.sum('V'), m: op.mean('V'), v: op.variance('V'), iv: op.invalid('K1'), n: op.count() })",
        // a filter of a filtered table, then groupby and rollup: the row index read from the filter's words
        "(X) => X.filter((d) => d.K1 !== 'a').filter((d) => d.Y > 0).groupby('K2').rollup({ s: op.sum('V'), n: op.count(), mn: op.min('V') })",
        "(X) => X.filter((d) => d.Y > 0).groupby('K2').filter((d) => d.V > 0).rollup({ s: op.sum('V'), m: op.mean('V') })",
        "(X) => X.filter((d) => d.K2 === 'x').filter((d) => d.V < 3).rollup({ s: op.sum('V'), mx: op.max('V') })",
        // min and max of one group, every row and through the visible rows (-0 and 0: the first met stays)
        "(X) => X.rollup({ mn: op.min('V'), mx: op.max('V'), a: op.min('Y'), b: op.max('Y') })",
        "(X) => X.orderby('K1').rollup({ mn: op.min('V'), mx: op.max('V'), a: op.min('Y'), b: op.max('Y') })",
        "(X) => X.filter((d) => false).rollup({ s: op.sum('V'), m: op.mean('V'), v: op.stdev('V'), mn: op.min('V'), n: op.count(), kv: op.valid('K1') })",
        '(X) => X.count()',
        '(X) => X.count()',
        "(X) => X.filter((d) => d.Y >= 2).groupby('K1').rollup({ s: op.sum('V'), m: op.max('D') })",
        "(X) => X.orderby(aq.desc('V')).groupby('K2').rollup({ s: op.sum('V'), m: op.mean('V') })",
        "(X) => X.groupby('K1').rollup({ x: (d) => op.sum(d.V) + 1, d: op.distinct('K1') })",
        "(X) => X.groupby('K1').filter((d) => d.Y > 1).rollup({ s: op.sum('V') })",
        // min/max of one group: the first of equal extremes kept (-0 or 0 as met in scan order)
        "(X) => X.rollup({ mn: op.min('V'), mx: op.max('V'), ymn: op.min('Y'), ymx: op.max('Y'), n: op.count() })",
        "(X) => X.filter((d) => d.Y > 0).orderby(aq.desc('V')).rollup({ mn: op.min('V'), mx: op.max('V') })",
        "(X) => X.orderby('Y').rollup({ mn: op.min('V'), mx: op.max('V'), r: (d) => op.max(d.V) - op.min(d.V) })",
        // distinct: dictionary codes, numbers (-0 and 0 one value, NaN/null one more), dates left to Arquero
        "(X) => X.rollup({ k: op.distinct('K1'), k2: op.distinct('K2'), v: op.distinct('V'), y: op.distinct('Y'), d: op.distinct('D') })",
        "(X) => X.groupby('K2').rollup({ k: op.distinct('K1'), v: op.distinct('V'), n: op.count() })",
        "(X) => X.filter((d) => d.Y > 0).orderby(aq.desc('V')).groupby('K1', 'Y').rollup({ k: op.distinct('K2'), v: op.distinct('V') })",
        "(X) => X.filter((d) => false).rollup({ k: op.distinct('K1'), v: op.distinct('V') })",
        // min/max of a date column: by time, a Date out (rollupDate.ts); empty groups undefined
        "(X) => X.rollup({ mn: op.min('D'), mx: op.max('D'), n: op.count() })",
        "(X) => X.orderby(aq.desc('V')).groupby('K1').rollup({ mn: op.min('D'), mx: op.max('D'), y: op.max('Y') })",
        "(X) => X.filter((d) => d.Y > 0).groupby('K2', 'Y').rollup({ mx: op.max('D'), span: (d) => op.max(d.D) - op.min(d.D) })",
        "(X) => X.filter((d) => d.D === null).rollup({ mn: op.min('D'), mx: op.max('D') })",
        "(X) => X.filter((d) => false).rollup({ mx: op.max('D') })",
      ]),
    ).toEqual([]);
  }, 180_000);
  test('filters evaluated once per dictionary entry and on typed arrays', async () => {
    expect(
      await diff([
        "(X) => X.filter((d) => d.K1 === 'a' && d.Y >= 3)",
        '(X) => X.filter((d) => !(d.K2 == null) || d.V < 0)',
        "(X) => X.filter((d) => op.includes(d.K1, 'a'))",
        "(X) => X.filter((d) => op.startswith(d.K1, 'a') || op.endswith(d.K1, 'y'))",
        "(X) => X.filter((d) => contains(d.K1, 'A', { case: false }))",
        '(X) => X.filter((d) => op.match(d.K1, /ü|😀/i) != null)',
        "(X) => X.filter((d) => op.lower(d.K1) === 'a' || d.K1 > 'b')",
        '(X) => X.filter((d) => d.K1)',
        '(X) => X.filter((d) => d.Y)',
        '(X) => X.filter((d) => d.V !== d.V || -1 < d.V)',
        '(X) => X.filter((d) => d.V == null)',
        '(X) => X.filter((d) => d.V != null)',
        '(X) => X.filter((d) => null !== d.Y && d.D === null)',
        '(X) => X.filter((d) => !(d.D != null) || d.V !== null)',
        '(X) => X.filter((d) => d.V === undefined || d.Y == undefined)',
        "(X) => X.filter((d) => 2 <= d.Y && d.Y != 4 && d.K2 !== 'x')",
        '(X) => X.filter((d) => d.D > 0 && d.K1 !== null)',
        "(X) => X.filter((d) => op.includes(['a', 'b', 'null'], d.K1))",
        '(X) => X.filter((d) => isna(d.K1) || notna(d.V) && d.V === -0)',
        '(X) => X.filter(\'d.K1 == "a" || d.Y < 0\')',
        "(X) => X.filter((d) => d.K1 === 'a').filter((d) => d.Y > 0).numRows()",
        "(X) => X.orderby('V').filter((d) => d.K2 === 'y')",
        "(X) => X.groupby('K1').filter((d) => d.K2 === 'y')",
        '(X) => X.filter((d) => d.Y > op.mean(d.Y))',
        '(X) => X.filter((d) => op.length(d.K1) > 1 ? d.Y > 0 : d.Y < 0)',
        "(X) => X.filter((d) => d.K2 === 'x' && d.K1.length > 1)",
        '(X) => X.filter((d) => 3 > d.V || d.Y == 2 || -2 >= d.Y)',
        "(X) => X.filter((d) => !(d.V <= 0.1) && !(d.K1 != 'a' || d.Y !== 1) || d.V === 0)",
        "(X) => X.filter((d) => d.Y >= '2' || d.V == null)",
        '(X) => X.filter((d) => d.K1 === d.K2 || op.abs(d.V) > 10)',
        '(X) => X.filter((d) => d.D < 0)',
        // functions of a date column: once per distinct time of the column (dateCodes.ts)
        '(X) => X.filter((d) => op.year(d.D) === 1970)',
        '(X) => X.filter((d) => op.month(d.D) >= 6 && d.Y > 0)',
        '(X) => X.filter((d) => op.utcyear(d.D) < 1970 || op.dayofweek(d.D) === 0)',
        "(X) => X.filter((d) => d.K1 !== 'a').filter((d) => op.hours(d.D) > 11)",
        '(X) => X.filter((d) => op.year(d.D))',
        '(X) => X.filter((d) => !op.is_nan(op.timestamp(d.D)))',
        // number column OP number, every operator from either side (the branch-free loops of
        // predicate.ts): null rows (null < 1 is true, null !== 0 too), NaN, -0 against 0
        '(X) => X.filter((d) => d.V > 0.1).numRows()',
        '(X) => X.filter((d) => d.V >= -0)',
        '(X) => X.filter((d) => d.V < 1)',
        '(X) => X.filter((d) => d.V <= 0).numRows()',
        '(X) => X.filter((d) => d.V === 0)',
        '(X) => X.filter((d) => d.V !== -0)',
        '(X) => X.filter((d) => d.V == 0.2 || d.Y != 3)',
        '(X) => X.filter((d) => -1 < d.Y && 4 >= d.Y)',
        '(X) => X.filter((d) => 0 === d.V || 5 !== d.Y)',
        '(X) => X.filter((d) => 9 > d.V).filter((d) => -3 <= d.Y).numRows()',
        '(X) => X.filter((d) => 0 < d.Y)',
      ]),
    ).toEqual([]);
  }, 180_000);
  test('closures Arquero cannot compile: run once per distinct value combination when they read 1-3 host columns and have no effects', async () => {
    expect(
      await diff([
        "(X) => X.filter((d) => ['a', 'b', 'null'].includes(d.K1))",
        "(X) => X.filter((d) => d.K1 !== null && d.K1.startsWith('a'))",
        "(X) => X.filter((d) => (d.K1 || '').toLowerCase().includes('ü') || /😀|^$/u.test(d.K1 ?? 'x'))",
        '(X) => X.filter((d) => d.K1.length > 1)',
        "(X) => X.filter((d) => { const s = d['K2']; return s === 'x' || ['y', 'w'].some((w) => w === s); })",
        "(X) => { const wanted = new Set(['x', 'z']); return X.filter((d) => wanted.has(d.K2)); }",
        "(X) => { const lim = 2; return X.filter((d) => d.Y > lim && d.K2 !== 'x'); }",
        "(X) => { let n = 0; return X.filter((d) => d.K2 === 'x' && n++ < 3); }",
        '(X) => { const re = /a/g; return X.filter((d) => re.test(d.K1)); }',
        "(X) => { const f = (s) => s === 'x'; return X.filter((d) => [d.K2].some(f)); }",
        "(X) => X.filter((d) => d.K1?.endsWith('y'))",
        "(X) => X.groupby('K2').filter((d) => String(d.K1).startsWith('a')).count()",
        "(X) => { const since = 2; return X.filter((d) => d.K2 === 'x' && d.Y >= since || Object.is(d.V, -0)); }",
        '(X) => { const neg = 0; return X.filter((d) => 1 / d.V < neg); }',
        "(X) => { const lo = -1e5; return X.filter((d) => (d.V > lo && d.K1 !== 'a') || d.D === null || 1 / d.V < 0); }",
        "(X) => { const cut = new Date(0); return X.filter((d) => d.D >= cut && ['x', 'y'].includes(d.A)); }",
        "(X) => { const k = 'y'; return X.orderby('V').filter((d) => d.K2 === k && !Number.isNaN(d.V)); }",
      ]),
    ).toEqual([]);
  }, 180_000);
  test('agg, size and value_counts (pandas semantics) on typed arrays', async () => {
    expect(
      await diff([
        "(X) => X.groupby('K1').agg({ V: ['sum', 'mean', 'median', 'min', 'max', 'std', 'var', 'count', 'size', 'nunique', 'first', 'last', 'prod'], K2: ['count', 'nunique', 'first', 'last', 'size'] })",
        "(X) => X.groupby('K2', 'Y').agg({ total: ['V', 'sum'], n: 'size', d0: ['D', 'min'], d1: ['D', 'last'], u: ['D', 'nunique'] })",
        "(X) => X.groupby(['D', 'K1']).agg({ V: 'mean' }, { dropna: false, sort: false })",
        "(X) => X.groupby('V').agg({ Y: ['sum', 'median'] }, { dropna: false })",
        "(X) => X.filter((d) => d.Y > 0).groupby('K1').agg({ V: ['sum', 'max'] })",
        "(X) => X.orderby(aq.desc('V'), 'K1').groupby('K2').agg({ V: ['sum', 'first', 'last', 'median'] })",
        "(X) => X.agg({ V: ['sum', 'mean', 'min', 'std'], K1: 'nunique' })",
        "(X) => X.filter((d) => false).agg({ V: ['sum', 'mean', 'prod', 'median', 'first'] })",
        "(X) => X.groupby('K1', 'K2').size()",
        "(X) => X.groupby('A').agg({ V: (vs) => vs.length, Y: 'sum' })",
        "(X) => X.groupby('K1').agg({ K2: 'min' })",
        "(X) => value_counts(X, 'K1')",
        "(X) => value_counts(X, ['K1', 'Y'], { dropna: false })",
        "(X) => value_counts(X, 'V', { dropna: false, normalize: true })",
        "(X) => value_counts(X, ['D', 'K2', 'A'])",
        "(X) => X.orderby('V').filter((d) => d.Y !== 2).value_counts('K2', { ascending: true })",
        "(X) => X.value_counts(['K1', 'V'], { sort: false })",
        "(X) => pivot_table(X, { index: 'K1', columns: 'K2', values: 'V', aggfunc: 'sum', fill_value: 0 })",
        "(X) => pivot_table(X, { index: ['K2', 'Y'], columns: 'K1', values: ['V', 'Y'], aggfunc: ['mean', 'size'], margins: true })",
        "(X) => pivot_table(X, { index: 'V', values: 'Y', aggfunc: 'median' })",
        "(X) => X.filter((d) => d.Y !== 0).pivot_table({ index: 'A', columns: ['K1', 'K2'], values: 'V' })",
        "(X) => crosstab(X, 'K1', 'K2')",
        "(X) => crosstab(X, ['K2', 'A'], 'Y', { normalize: 'index', margins: true })",
        "(X) => crosstab(X.filter((d) => d.Y === 1), 'D', 'K2')",
        "(X) => crosstab(X, 'K2', 'Y', { values: 'V', aggfunc: 'max' })",
      ]),
    ).toEqual([]);
  }, 180_000);
  // the full order of sort_values by host columns, sorted on the typed columns when the row index is
  // first read (fast/sortedRows.ts), against Arquero's comparator sort of the plain copy
  test('sort_values in full: one and several keys of every type, both directions, nulls first or last, filtered, grouped', async () => {
    expect(
      await diff([
        "(X) => [X.sort_values('V'), X.sort_values('V', { ascending: false }), X.sort_values('V', { na_position: 'first' })]",
        "(X) => [X.sort_values('Y', { ascending: false, na_position: 'first' }), X.sort_values('D'), X.sort_values('D', false)]",
        "(X) => [X.sort_values('K1'), X.sort_values('K1', { ascending: false, na_position: 'first' }), X.sort_values('K2').indices()]",
        "(X) => [X.sort_values(['K1', 'V'], { ascending: [true, false] }), X.sort_values(['K2', 'Y', 'D'], { ascending: [false, true, false], na_position: 'first' })]",
        "(X) => [X.filter((d) => d.K2 !== 'x').sort_values('V'), X.orderby(aq.desc('Y')).sort_values(['A', 'K1']), X.slice(2, 900).sort_values('D', { ascending: false })]",
        "(X) => [X.groupby('K2').sort_values('V'), X.sort_values('V').groupby('K1').count(), X.sort_values('Y').objects().slice(0, 5), X.sort_values({ by: 'V', ascending: false }).partitions()]",
        "(X) => { const t = X.sort_values('V'); return [t.array('V'), t.filter((d) => d.Y !== 1).array('K1'), t.slice(1, 4), t.reify().indices(), t.indices() === t.indices()]; }",
        "(X) => { const t = X.sort_values(['Y', 'V']); Object.freeze(t); return [t.indices(), t.array('V')]; }",
        "(X) => { const t = X.sort_values('V'); t._index = null; return [t.array('K2'), t.indices()]; }",
        "(X) => [nlargest(X, 1000, 'V'), X.nsmallest(5000, 'D'), X.sort_values('V').head(1e6).numRows()]",
      ]),
    ).toEqual([]);
  }, 180_000);
  test('top-n: orderby(...).slice(0, n), sort_values(...).head(n), nlargest, nsmallest', async () => {
    expect(
      await diff([
        "(X) => X.orderby(aq.desc('V')).slice(0, 7)",
        "(X) => X.orderby('K1', aq.desc('Y')).slice(0, 40)",
        "(X) => X.orderby('D').slice(3, 12)",
        "(X) => X.filter((d) => d.K2 !== 'x').orderby(aq.desc('Y'), 'V').slice(0, 5)",
        "(X) => X.sort_values('V', { ascending: false }).head(10)",
        "(X) => X.sort_values(['K1', 'V'], { ascending: [true, false] }).head(25)",
        "(X) => X.sort_values('D', { na_position: 'first' }).head(3)",
        "(X) => nlargest(X, 5, 'V')",
        "(X) => X.nsmallest(8, 'Y')",
        "(X) => X.orderby(aq.desc('V')).slice(0, 0)",
        // one key: the typed selection (nulls and NaN below every value in orderby, last in sort_values)
        "(X) => X.orderby('V').slice(0, 30)",
        "(X) => X.orderby('K1').slice(0, 50)",
        "(X) => X.orderby(aq.desc('K1')).slice(0, 50)",
        "(X) => X.orderby(aq.desc('D')).slice(0, 60)",
        "(X) => X.orderby('Y').slice(0, 100)",
        "(X) => X.filter((d) => d.K2 !== 'y').orderby(aq.desc('Y')).slice(0, 33)",
        "(X) => X.sort_values('V').head(40)",
        "(X) => X.sort_values('K1', { ascending: false }).head(40)",
        "(X) => X.sort_values('V', { ascending: false, na_position: 'first' }).head(40)",
        "(X) => X.sort_values('D', { na_position: 'first' }).head(200)",
        // many ties at the bound of the selection (a few distinct values, nulls and NaN past it)
        "(X) => X.orderby('A').slice(0, 50)",
        "(X) => X.orderby(aq.desc('Y')).slice(0, 150)",
        "(X) => X.sort_values('Y', { ascending: false, na_position: 'first' }).head(120)",
        // the heap full of nulls or NaN first, then values (and the first tier all nulls: no row enters)
        "(X) => X.sort_values('V').head(60)",
        "(X) => X.sort_values('Y', { ascending: false }).head(60)",
        "(X) => X.sort_values('K1').head(60)",
        "(X) => X.orderby(aq.desc('Y')).slice(0, 60)",
        "(X) => X.orderby(aq.desc('K1')).slice(0, 60)",
        "(X) => X.orderby('V').slice(0, 60)",
        "(X) => X.orderby('V').slice(0, 150)",
        "(X) => X.orderby('D').slice(0, 150)",
        "(X) => nlargest(X, 60, 'V')",
        // a filtered table: the selection reads the mask's words (typedTop.ts maskedNum / maskedDict)
        "(X) => X.filter((d) => d.K2 !== 'x').orderby('V').slice(0, 30)",
        "(X) => X.filter((d) => d.K2 !== 'y').orderby(aq.desc('V')).slice(0, 60)",
        "(X) => X.filter((d) => d.K2 !== 'y').orderby('K1').slice(0, 50)",
        "(X) => X.filter((d) => d.K2 !== 'x').orderby(aq.desc('K1')).slice(0, 60)",
        "(X) => X.filter((d) => d.K2 !== 'x').orderby(aq.desc('D')).slice(0, 60)",
        "(X) => X.filter((d) => d.K2 !== 'x').orderby('A').slice(0, 50)",
        "(X) => X.filter((d) => d.K2 !== 'x').orderby('V').slice(0, 150)",
        "(X) => X.filter((d) => d.K2 !== 'y').sort_values('V', { ascending: false, na_position: 'first' }).head(40)",
        "(X) => X.filter((d) => d.K2 !== 'y').sort_values('V').head(60)",
        "(X) => X.filter((d) => d.K2 !== 'x').sort_values('K1').head(60)",
        "(X) => X.filter((d) => d.K2 !== 'x').sort_values('Y', { ascending: false }).head(60)",
        "(X) => X.filter((d) => d.V !== 2).sort_values('D', { na_position: 'first' }).head(120)",
      ]),
    ).toEqual([]);
  }, 180_000);
});
