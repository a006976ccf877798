// Groups of one host number column ordered from the column's codes and their kept ranks
// (prelude/fast/groups.ts numberKeyOrder, frame/groupAgg.ts byColumns): every aggregation must give
// exactly what Arquero's grouping of a plain-array copy gives (the getters and compareKeys), on both
// engines: -0 and 0 in one group (either first), NaN and null keys dropped, +-Infinity, thousands
// of distinct keys, filtered and ordered tables, a grouping whose key column a later verb replaced,
// and the options (dropna, sort) that keep the general path. Date parts read from the session's kept
// getter answers as a pending chain (series/dtAccessor.ts) against a plain copy's Dates, dtype included,
// and their value_counts from the base's counts; sums of chains of scalar steps in one compiled loop
// (series/numberChain.ts) against the eager steps; medians and quantiles read again from kept ranks.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createSandbox } from '../../../../src/index.js';
import { differentialHelpers } from './differentialRuns.js';
import { build, tableArb, type Row } from './randomTables.js';

const SPREAD = [0, -0, Number.NaN, Infinity, -Infinity, 1, 1 + 2 ** -52, -(2 ** 53), 0.1, 0.2, 0.30000000000000004];

/** ~6,000 distinct number keys over 15,001 rows, out of order, with the values above among them. */
function manyKeys(zeroFirst: boolean): Row[] {
  return Array.from({ length: 15001 }, (_, i) => {
    const j = (i * 7919) % 6000;
    const spread = SPREAD[j % SPREAD.length]!;
    // the zero group's first row holds -0 or 0 (the key the getter reads there)
    const v = i === 0 ? (zeroFirst ? 0 : -0) : j % 41 === 0 ? null : j % 5 === 0 ? spread : (j - 3000) * 0.25;
    // dates before and after 1970, at odd hours, minutes, seconds and milliseconds
    const d = j % 13 === 0 ? null : (j - 3000) * 25_200_000 + (j % 5) * 61_001;
    return { K1: j % 3 ? 'a' : null, K2: ['x', 'y', 'z'][i % 3]!, Y: j % 7, D: d, V: v, A: 'x' };
  });
}

const TABLES = {
  zeroFirst: { ...build(manyKeys(true)), name: 'zeroFirst' },
  negZeroFirst: { ...build(manyKeys(false)), name: 'negZeroFirst' },
  // a time past the Date range (9e15 ms): its parts are missing
  small: {
    ...build(
      SPREAD.map((v, i) => ({ K1: 'a', K2: 'x', Y: i, D: i === 3 ? 9e15 : i === 4 ? null : -i * 1e11, V: v, A: 'x' })),
    ),
    name: 'small',
  },
  empty: { ...build([]), name: 'empty' },
  ...Object.fromEntries(
    fc.sample(tableArb, { numRuns: 6, seed: 20261126 }).map((t, i) => [`r${i}`, { ...t, name: `r${i}` }]),
  ),
};

const EXPRS = [
  "(X) => [X.groupby('V').size(), X.groupby('Y').size(), X.groupby('V')['Y'].sum(), X.groupby('V')['Y'].mean()]",
  "(X) => X.groupby('V').agg({ Y: ['sum', 'count', 'min', 'max', 'median', 'first', 'last', 'nunique'], n: 'size' })",
  "(X) => [X.groupby('V')['K1'].nunique(), X.groupby('V')['K2'].first(), X.groupby('V').agg({ K2: 'last' })]",
  "(X) => [X.filter(X.Y.gt(2)).groupby('V').size(), X.orderby(aq.desc('Y')).groupby('V')['Y'].first(), X.filter(X.K2.eq('y')).orderby('V').groupby('V').size()]",
  // options that keep the general path: null and NaN groups kept, groups in first-seen order
  "(X) => [X.groupby('V').agg({ Y: 'sum' }, { dropna: false }), X.groupby('V').agg({ Y: 'sum' }, { sort: false })]",
  // the key column replaced or computed after the grouping: the group keys are not the column's values
  "(X) => [X.groupby('V').derive({ V: (d) => d.Y * 2 }).agg({ n: 'size' }), X.groupby({ V: (d) => d.V * -1 }).size()]",
  "(X) => [X.groupby('V').filter((d) => d.Y > 1).size(), X.groupby('V').size().numRows(), X.V.nunique()]",
  // ranks of a column's kept packed values, kept for the session (fast/presentValues.ts keptRanks)
  "(X) => { const qs = Array.from({ length: 21 }, (_, i) => i / 20); const one = 1 / Math.max(1, X.V.count() - 1); return [X.V.median(), X.V.quantile(qs).tolist(), qs.map((q) => X.V.quantile(Math.min(1, q + one))), X.V.median(), X.rollup({ m: op.median('V'), q: op.quantile('V', 0.3) }).objects(), X.Y.quantile([0.5, 0.25]).tolist(), X.Y.median()]; }",
];

/** Sums of chains of scalar steps, one compiled loop per sequence of operators (series/numberChain.ts fusedSum). */
const CHAIN_EXPRS = [
  '(X) => [X.V.mul(2).add(1).sum(), X.V.mul(2).add(1).mean(), X.V.mul(2).add(1).count(), X.Y.sub(3).div(2).sum(), X.Y.rsub(1).rdiv(3).mean()]',
  '(X) => [X.V.fillna(0).mul(-1).sum(), X.V.mul(0).add(-0).sum(), X.V.div(0).sum(), X.V.radd(0.1).rmul(3).mean(), X.V.add(1e308).mul(10).sum(), X.V.mul(-1).fillna(-0).sum()]',
  '(X) => [X.V.mul(2).add(1).mean(), X.V.mul(3).add(1).mean(), X.V.add(1).mul(2).mean(), X.V.mul(2).add(1).sub(1).div(2).mean(), X.Y.mul(2).add(1).sum()]',
  "(X) => [X.filter(X.Y.gt(1)).V.mul(2).add(1).sum(), X.orderby('V').V.mul(2).add(1).mean(), X.V.diff().mul(2).sum(), X.V.mul(X.Y).add(1).sum(), X.V.cumsum().mul(2).sum(), X.V.abs().add(1).sum()]",
];

/** Date parts (a pending chain over the kept getter answers: series/dtAccessor.ts). */
const DATE_PARTS = ['year', 'month', 'day', 'hour', 'minute', 'second', 'quarter', 'dayofweek'];
const DT_EXPRS = [
  `(X) => [${DATE_PARTS.map((p) => `X.D.dt.${p}`).join(', ')}].map((p) => [p.tolist(), p.dtype, p.length, p.index, p.mean(), p.sum(), p.min(), p.max(), p.count(), p.isna().sum()])`,
  '(X) => [X.D.dt.month.value_counts(), X.D.dt.year.value_counts({ dropna: false }), X.D.dt.month.nunique(), X.D.dt.year.unique(), X.D.dt.day.std(), X.D.dt.month.median()]',
  "(X) => [X.D.dt.month.mul(2).add(1).sum(), X.D.dt.year.sub(2000).tolist(), X.D.dt.month.eq(3).sum(), X.D.dt.month.fillna(0).tolist(), X.D.dt.year.gt(1990).sum(), X.D.dt.month.astype('string').tolist()]",
  "(X) => [X.filter(X.Y.gt(1)).D.dt.month.tolist(), X.orderby(aq.desc('V')).D.dt.year.mean(), X.filter(X.K2.eq('x')).D.dt.day.value_counts(), X.orderby('D').D.dt.month.index]",
  '(X) => { const m = X.D.dt.month; const y = X.D.dt.year; return [m.mean(), m.tolist(), y.sum(), y.dtype, String(m.head(3)), m.get(0), m.iloc[1]]; }',
  // value_counts of a chain of per-value steps over small integers, from the base's counts with the
  // keys mapped and merged (series/fastReduce.ts mappedCounts): order of first appearance, ties,
  // the missing key (a fillna maps it to a value), -0 and 0 merged as their first occurrence, the
  // base's counts kept for the session (asked again through other chains)
  '(X) => [X.D.dt.quarter.value_counts(), X.D.dt.dayofweek.value_counts({ dropna: false }), X.D.dt.day.value_counts({ normalize: true }), X.D.dt.hour.value_counts(), X.D.dt.month.value_counts({ sort: false, dropna: false }), X.D.dt.year.value_counts({ ascending: true }), X.D.dt.minute.value_counts({ dropna: false })]',
  '(X) => [X.D.dt.month.fillna(3).value_counts(), X.D.dt.year.fillna(-0).value_counts({ dropna: false }), X.D.dt.month.mul(0).value_counts(), X.D.dt.dayofweek.sub(3).mul(0).value_counts({ dropna: false, sort: false }), X.D.dt.quarter.floordiv(2).value_counts(), X.D.dt.day.div(7).round().value_counts(), X.D.dt.month.pow(0).value_counts({ dropna: false }), X.D.dt.month.clip(3, 9).abs().value_counts()]',
  "(X) => [X.filter(X.Y.gt(1)).D.dt.quarter.value_counts({ dropna: false }), X.orderby(aq.desc('V')).D.dt.month.add(1).value_counts({ sort: false }), X.Y.add(1).value_counts({ dropna: false }), X.Y.fillna(2).value_counts({ sort: false }), X.Y.mul(-1).value_counts(), X.Y.sub(X.Y).value_counts(), X.Y.cumsum().value_counts(), X.D.dt.dayofweek.unique()]",
  '(X) => [X.D.dt.year.value_counts(), X.D.dt.year.sub(1).value_counts({ dropna: false }), X.D.dt.year.value_counts(), X.D.dt.year.mod(4).value_counts({ sort: false }), X.D.dt.dayofweek.mod(2).value_counts(), X.D.dt.dayofweek.value_counts()]',
];

const DUMP = `var __dump = (x) => {
  if (!(x instanceof aq.ColumnTable)) return __ser(x);
  const names = x.columnNames();
  return JSON.stringify({ names, rows: x.numRows(), cols: names.map((c) => x.array(c).map(__ser)) });
};`;

describe.each(['isolated-vm', 'quickjs'] as const)('groups of one number column on %s', (engine) => {
  test('agg, size and Series aggregations give what Arquero gives on a plain copy', async () => {
    // the runs' deadline is the test's own bound, not the standard 30 s: a run of ~1.5 s of QuickJS
    // CPU took 10 s of wall time at load 17 and past 30 s at load ~22 (the answers are what is tested)
    await using box = await createSandbox({
      engine,
      awardData: false,
      tables: TABLES,
      maxResultBytes: 8 << 20,
      timeoutMs: 300_000,
    } as never);
    const setup = await box.run(differentialHelpers(Object.keys(TABLES), DUMP));
    expect(setup.ok, setup.error?.message).toBe(true);
    const diffs: unknown[] = [];
    for (let i = 0; i < EXPRS.length; i += 2) {
      const r = await box.run(`__diff([${EXPRS.slice(i, i + 2).join(',\n')}])`);
      expect(r.ok, r.error?.message).toBe(true);
      diffs.push(...(r.value as unknown[]));
    }
    for (const exprs of [CHAIN_EXPRS, DT_EXPRS])
      for (let i = 0; i < exprs.length; i += 2) {
        const r = await box.run(`__diff([${exprs.slice(i, i + 2).join(',\n')}])`);
        expect(r.ok, r.error?.message).toBe(true);
        diffs.push(...(r.value as unknown[]));
      }
    expect(diffs).toEqual([]);
    // the groups come back in key order, -0 and 0 as one group keyed by its first row's value
    const order = await box.run(
      "[tables.zeroFirst, tables.negZeroFirst].map((X) => { const k = X.groupby('V').size().array('V'); const z = k.find((v) => v === 0); return [k.every((v, i) => i === 0 || k[i - 1] < v), k.length === X.V.nunique(), Object.is(z, -0)]; })",
    );
    expect(order.ok && order.value).toEqual([
      [true, true, false],
      [true, true, true],
    ]);
  }, 300_000);
});
