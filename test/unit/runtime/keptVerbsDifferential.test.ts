// What the fast verbs keep for the session (prelude/fast/filterKept.ts: a filter's rows over every row
// of a table; prelude/fast/rollupOne.ts `keptOne`: an ungrouped reduction over every row of a host
// column; prelude/fast/groups.ts `keptGroups`: the group ids of every row; prelude/fast/typedTop.ts
// `keptTops`: a top-n's rows over every row of a host column) on both engines. Each step runs in one session on award_data (host columns: the fast
// paths, which read what an earlier step kept) and on a plain-array copy (Arquero's own verbs), and
// the exact dumps (errors included) must agree at every step. The steps ask the same filter or
// reduction again, over other columns under the same names, other texts, other tables sharing the
// columns, and after a run wrote into what the fast path handed out.
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { PLAIN_DUMP_SETUP } from '../../helpers/bothAgree.js';

afterAll(() => shutdown());

const SETUP = `${PLAIN_DUMP_SETUP}var __pair = (f) => {
  const run = (X) => { try { return __dump(f(X)); } catch (e) { return 'ERR ' + e.name + ': ' + e.message; } };
  return [run(award_data), run(__plain)];
};
1`;

const OVER = "(d) => d['Award Amount'] > 1e5";

// each program runs twice in a row, and the list runs twice: every kept answer is read at least three times
const FILTERS = [
  `(X) => X.filter(${OVER}).numRows()`,
  "(X) => X.filter((d) => d['Award Amount'] > 2e5).numRows()",
  // the rows themselves, through the kept index: values, a reduction over them, rows
  `(X) => X.filter(${OVER}).array('Award Amount')`,
  `(X) => X.filter(${OVER}).rollup({ s: op.sum('Award Amount'), n: op.count(), lo: op.min('Award Year') })`,
  `(X) => X.filter(${OVER}).objects({ limit: 3 })`,
  `(X) => X.filter(${OVER}).filter((d) => d.Phase === 'Phase I').numRows()`,
  `(X) => X.filter(${OVER}).groupby('Phase').count()`,
  // the same names over other columns: the same kept parse, other rows
  "(X) => X.select('Award Amount').filter((d) => d['Award Amount'] > 10).numRows()",
  "(X) => X.select({ 'Number Employees': 'Award Amount' }).filter((d) => d['Award Amount'] > 10).numRows()",
  "(X) => X.select({ 'Award Year': 'Award Amount' }).filter((d) => d['Award Amount'] > 10).array('Award Amount')",
  // a run writes into the rows a kept filter handed out: the next one gets its own
  `(X) => { const f = X.filter(${OVER}); f.indices()[0] = 2; f.indices()[1] = 2; return f.array('Award Year'); }`,
  `(X) => { const f = X.filter(${OVER}); const m = f.mask(); m.set(0); m.set(1); return f.numRows(); }`,
  // the count a kept filter's table takes from its row index (frame/bitWords.ts createCounted) leaves
  // the mask as Arquero's: no own key, and count() counts the bits a run set since
  `(X) => { const f = X.filter(${OVER}); const m = f.mask(); const keys = Object.getOwnPropertyNames(m).join(); m.set(0); m.set(1); return [f.numRows(), m.count(), keys]; }`,
  `(X) => X.filter(${OVER}).array('Award Year')`,
  // other tables over the same columns; ordered and filtered tables (no kept rows)
  `(X) => X.derive({ k: (d) => d['Award Year'] * 2 }).filter(${OVER}).array('k')`,
  `(X) => X.orderby(aq.desc('Award Year')).filter(${OVER}).array('Award Amount')`,
  `(X) => X.filter((d) => d.Phase === 'Phase II').filter(${OVER}).array('Award Amount')`,
  // dictionary and long text columns, null tests, the constant undefined, ?:, !, unary minus
  "(X) => X.filter((d) => d.Agency === 'Department of Defense' ? d['Award Year'] >= 2015 : !d.Phase).numRows()",
  "(X) => X.filter((d) => d.Abstract == null || d.Abstract === 'N/A').numRows()",
  "(X) => X.filter((d) => d['Number Employees'] !== undefined && -d['Award Year'] < -2010).numRows()",
  "(X) => X.filter((d) => d['Number Employees'] > NaN || d['Award Amount'] <= Infinity).numRows()",
  // an operator that throws: Arquero's error every time
  "(X) => X.filter((d) => 'a' in d['Award Year']).numRows()",
];

const ROLLUPS = [
  "(X) => X.rollup({ m: op.mean('Award Amount'), s: op.sum('Award Amount'), lo: op.min('Award Year'), hi: op.max('Award Year'), v: op.valid('Phase'), i: op.invalid('Agency'), sd: op.stdev('Number Employees'), n: op.count() })",
  "(X) => X.rollup({ s: op.mean('Award Amount') })",
  "(X) => X.rollup({ s: op.sum('Award Amount'), v: op.variance('Award Amount'), a: op.average('Number Employees') })",
  // the same names over other columns
  "(X) => X.select({ 'Number Employees': 'Award Amount' }).rollup({ m: op.mean('Award Amount'), x: op.max('Award Amount') })",
  "(X) => X.select('Award Amount').rollup({ m: op.mean('Award Amount'), x: op.max('Award Amount') })",
  // a filtered or ordered table reduces its own rows
  "(X) => X.filter((d) => d['Award Year'] > 2012).rollup({ m: op.mean('Award Amount') })",
  "(X) => X.orderby('Award Year').rollup({ m: op.mean('Award Amount'), lo: op.min('Number Employees') })",
  // a run writes into the output column: the next one gets a fresh one
  "(X) => { const r = X.rollup({ m: op.mean('Award Amount') }); r.column('m')[0] = 7; return r.get('m', 0); }",
  "(X) => X.rollup({ m: op.mean('Award Amount') }).get('m', 0)",
];

const GROUPINGS = [
  "(X) => X.groupby('Phase').count()",
  "(X) => X.groupby('Award Year').rollup({ n: op.count(), s: op.sum('Award Amount') }).orderby('Award Year')",
  "(X) => X.groupby('Agency', 'Phase').count().orderby(aq.desc('count'))",
  // the same names over other columns; a filtered table groups its own rows
  "(X) => X.select({ Agency: 'Phase' }).groupby('Phase').count()",
  "(X) => X.filter((d) => d['Award Year'] > 2015).groupby('Phase').count()",
  // a run writes into the group ids a kept grouping handed out: the next one gets its own
  "(X) => { const g = X.groupby('Phase'); const k = g.groups().keys; k[0] = 1; k[1] = 1; k[2] = 0; return g.count(); }",
  "(X) => X.groupby('Phase').rollup({ m: op.mean('Award Amount') })",
];

const TOPS = [
  "(X) => X.orderby(aq.desc('Award Amount')).slice(0, 2).objects()",
  "(X) => X.orderby(aq.desc('Award Amount')).slice(0, 3)",
  "(X) => X.orderby('Award Amount').slice(0, 5)",
  "(X) => X.orderby(aq.desc('Agency')).slice(0, 4).array('Agency')",
  "(X) => X.orderby('Agency').slice(0, 4).array('Company')",
  // the same names over other columns; a filtered table's own rows
  "(X) => X.select({ 'Number Employees': 'Award Amount' }).orderby(aq.desc('Award Amount')).slice(0, 3)",
  "(X) => X.filter((d) => d.Phase === 'Phase I').orderby(aq.desc('Award Amount')).slice(0, 3)",
];

// a derived column kept for the session (prelude/fast/derive.ts `keptOutput`, session 19)
const M = "(d) => d['Award Amount'] / 1e6";
const DERIVES = [
  `(X) => X.derive({ m: ${M} }).filter((d) => d.m > 0.5).numRows()`,
  `(X) => X.derive({ m: ${M} }).select('m').objects().filter((r) => r.m > 0.5).length`,
  `(X) => X.derive({ m: ${M} }).array('m')`,
  `(X) => X.derive({ m: ${M} }).objects({ limit: 3 })`,
  // a run writes into the values it was handed: the next one gets the column's own
  `(X) => { const a = X.derive({ m: ${M} }).array('m'); a[0] = 7; a[1] = null; return a.slice(0, 3); }`,
  `(X) => X.derive({ m: ${M} }).array('m').slice(0, 3)`,
  // the same text under another name; the same names over other columns (the same kept parse)
  `(X) => X.derive({ k: ${M} }).columnNames().concat(X.derive({ k: ${M} }).array('k').slice(0, 2))`,
  `(X) => X.select({ 'Number Employees': 'Award Amount' }).derive({ m: ${M} }).array('m')`,
  `(X) => X.select({ 'Award Year': 'Award Amount' }).derive({ m: ${M} }).filter((d) => d.m > 0.002).numRows()`,
  // filtered and ordered tables (not kept: the hidden rows' validity is the view's)
  `(X) => X.filter((d) => d.Phase === 'Phase I').derive({ m: ${M} }).array('m')`,
  `(X) => X.orderby('Award Year').derive({ m: ${M} }).array('m').slice(0, 5)`,
  // booleans, ?:, ||, unary minus; a derived column derived again
  "(X) => X.derive({ b: (d) => d['Award Year'] > 2015, c: (d) => d.Phase === 'Phase I' ? -d['Award Amount'] : d['Number Employees'] || 0 }).objects({ limit: 4 })",
  `(X) => X.derive({ m: ${M} }).derive({ q: (d) => d.m * 2 + 1 }).filter((d) => d.q > 1.5).array('q')`,
  `(X) => X.derive({ m: ${M} }).derive({ q: (d) => d.m * 2 + 1 }).rollup({ s: op.sum('q'), n: op.count() })`,
];

describe.each(['isolated-vm', 'quickjs'] as const)('kept derived columns on %s', (engine) => {
  it('give what Arquero gives, asked again and over other columns', async () => {
    await using box = await createSandbox({ engine });
    expect((await box.run(SETUP)).ok).toBe(true);
    for (let pass = 0; pass < 2; pass++) {
      for (const program of DERIVES) {
        for (let round = 0; round < 2; round++) {
          const r = await box.run(`__pair(${program})`);
          expect(r.ok, program).toBe(true);
          const [fast, plain] = r.value as [string, string];
          expect(fast, `${program} (pass ${pass + 1}, run ${round + 1})`).toEqual(plain);
        }
      }
    }
  });
});

describe.each(['isolated-vm', 'quickjs'] as const)(
  'kept filters, reductions, groupings and top-n rows on %s',
  (engine) => {
    it('give what Arquero gives, asked again and over other columns', async () => {
      await using box = await createSandbox({ engine });
      expect((await box.run(SETUP)).ok).toBe(true);
      for (let pass = 0; pass < 2; pass++) {
        for (const program of [...FILTERS, ...ROLLUPS, ...GROUPINGS, ...TOPS]) {
          for (let round = 0; round < 2; round++) {
            const r = await box.run(`__pair(${program})`);
            expect(r.ok, program).toBe(true);
            const [fast, plain] = r.value as [string, string];
            expect(fast, `${program} (pass ${pass + 1}, run ${round + 1})`).toEqual(plain);
          }
        }
      }
    });
  },
);
