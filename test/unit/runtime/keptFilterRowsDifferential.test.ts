// Answers kept over the rows of a kept filter (prelude/frame/keptFilterRows.ts: a filter the session
// keeps, `t.filter(d => ...)` or `t[mask]`, is made again from kept words with its index lent; a
// grouping of its rows, the per-group rollup and agg answers, an ungrouped rollup's and a column's
// value counts over them are kept by the filter's words) on both engines. Each step runs in one
// session on award_data (host columns: the kept paths) and on a plain-array copy (Arquero's own
// verbs, the per-value Series paths), and the exact dumps (errors included) must agree at every step:
// the same question again, other filters, keys, ops and columns under the same names, ordered and
// regrouped tables, and runs that write into a filtered table's mask, its index (read or assigned),
// a grouping's ids or an answer they were handed, between the filter and the group-by or the rollup.
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { PLAIN_DUMP_SETUP } from '../../helpers/bothAgree.js';

afterAll(() => shutdown());

const SETUP = `${PLAIN_DUMP_SETUP}var __out = (x) => x && typeof x.tolist === 'function' && typeof x.dtype !== 'undefined'
  ? 'S' + x.length + ':' + x.name + ':' + __ser(x.tolist())
  : Array.isArray(x) ? '[' + x.map(__out).join(',') + ']' : __dump(x);
var __pair = (f) => {
  const run = (X) => { try { return __out(f(X)); } catch (e) { return 'ERR ' + e.name + ': ' + e.message; } };
  return [run(award_data), run(__plain)];
};
var __kept = {};
var __keep = (X, name, make) => { const k = name + (X === award_data ? ":a" : ":p"); return (__kept[k] ??= make()); };
1`;

const DOD = "'Department of Defense'";
const OPS =
  "{ n: op.count(), s: op.sum('Award Amount'), m: op.mean('Award Amount'), lo: op.min('Award Amount'), hi: op.max('Award Amount'), v: op.valid('City'), i: op.invalid('Number Employees'), d: op.distinct('Agency'), md: op.median('Award Amount'), q: op.quantile('Award Amount', 0.25), sd: op.stdev('Award Amount') }";

// the verbs forms: a filter a session keeps, then group-by, rollup, order and slice
const VERBS = [
  "(X) => X.filter((d) => d['Award Year'] >= 2018).groupby('Award Year').rollup({ total: op.sum('Award Amount') }).orderby('Award Year')",
  "(X) => X.filter((d) => d.State === 'California').groupby('City').rollup({ total: op.sum('Award Amount') }).orderby(aq.desc('total')).slice(0, 5)",
  `(X) => X.filter((d) => d.Agency === ${DOD} && d.Branch != null).groupby('Branch').count().orderby(aq.desc('count')).slice(0, 5)`,
  "(X) => X.filter((d) => d.Phase === 'Phase II' && d.State != null).groupby('State').count().orderby(aq.desc('count'), 'State')",
  `(X) => X.filter((d) => d.Program === 'STTR').groupby('Agency', 'Phase').rollup(${OPS})`,
  "(X) => X.filter((d) => d['Award Amount'] > 1e6 || d['Number Employees'] < 5).groupby('Phase').count({ as: 'n' })",
  // ungrouped over a kept filter
  `(X) => X.filter((d) => d.Agency === ${DOD} && d['Award Year'] >= 2015).rollup({ s: op.sum('Award Amount'), m: op.mean('Award Amount'), lo: op.min('Award Amount'), sd: op.stdev('Award Amount'), v: op.valid('Branch'), md: op.median('Award Amount') })`,
  "(X) => [X.filter((d) => d.Phase === 'Phase I').rollup({ s: op.sum('Award Amount') }).get('s', 0), X.filter((d) => d.Phase === 'Phase I').count().get('count', 0)]",
  "(X) => X.filter((d) => d.Phase === 'Phase I').rollup({ s: op.sum('Number Employees'), x: op.max('Award Year') })",
  // no row, every row
  "(X) => X.filter((d) => d['Award Year'] > 3000).groupby('State').count()",
  "(X) => X.filter((d) => d['Award Year'] > 3000).rollup({ s: op.sum('Award Amount'), n: op.count() })",
  "(X) => X.filter((d) => d['Award Year'] > 0).groupby('Phase').rollup({ s: op.sum('Award Amount') })",
  // the same names over other columns; another table sharing the filter's columns
  "(X) => X.select({ State: 'City', 'Award Amount': 'Number Employees', Phase: 'Phase' }).filter((d) => d.Phase === 'Phase II').groupby('State').rollup({ s: op.sum('Award Amount') }).orderby(aq.desc('s')).slice(0, 5)",
  "(X) => X.select('Phase', 'State', 'Award Amount').filter((d) => d.Phase === 'Phase II').groupby('State').rollup({ s: op.sum('Award Amount') }).orderby(aq.desc('s')).slice(0, 5)",
  "(X) => X.filter((d) => d.Phase === 'Phase II').derive({ 'Award Amount': (d) => d['Award Year'] * 2 }).groupby('State').rollup({ s: op.sum('Award Amount') }).orderby(aq.desc('s')).slice(0, 3)",
  // ordered, filtered again, regrouped
  "(X) => X.filter((d) => d.Phase === 'Phase II').orderby(aq.desc('Award Amount')).groupby('State').rollup({ s: op.sum('Award Amount'), n: op.count() }).slice(0, 5)",
  "(X) => X.filter((d) => d.Phase === 'Phase II').groupby('State').filter((d) => d['Award Year'] > 2015).count().orderby('State').slice(0, 5)",
  "(X) => X.filter((d) => d.Phase === 'Phase II').filter((d) => d['Award Year'] > 2015).groupby('State').count().orderby('State').slice(0, 5)",
];

// the Series forms: a kept mask, then a group-by agg, value counts or a reduction
const SERIES = [
  "(X) => X[X['Award Year'].ge(2018)].groupby('Award Year')['Award Amount'].sum()",
  "(X) => X[X.State.eq('California')].groupby('City')['Award Amount'].sum().sort_values({ ascending: false }).head(5)",
  `(X) => X[X.Agency.eq(${DOD})]['Branch'].value_counts().head(5)`,
  "(X) => X[X.Phase.eq('Phase II')]['State'].value_counts()",
  "(X) => X[X.Phase.eq('Phase II')]['State'].value_counts({ dropna: false })",
  "(X) => X[X.Program.eq('STTR')]['Agency'].value_counts().head(3)",
  "(X) => X[X.Program.eq('STTR')].value_counts(['Agency', 'Phase'])",
  "(X) => X[X.Phase.eq('Phase I')]['Award Amount'].sum()",
  "(X) => [X[X.Phase.eq('Phase I')]['Award Year'].sum(), X.derive({ y2: (d) => d['Award Year'] * 2 })[X.Phase.eq('Phase I')].y2.sum()]",
  "(X) => [X[X.Phase.eq('Phase I')]['Award Amount'].mean(), X[X.Phase.eq('Phase I')]['Number Employees'].sum(), X[X.Phase.eq('Phase II')]['Award Amount'].sum()]",
  `(X) => X[X.Agency.eq(${DOD}).and(X['Award Year'].ge(2015))]['Award Amount'].sum()`,
  "(X) => X[X['Award Year'].ge(2018)].groupby('Phase').agg({ 'Award Amount': ['sum', 'mean', 'min', 'max', 'count', 'std', 'median'], 'Number Employees': 'var', Agency: ['first', 'last', 'nunique'] })",
  "(X) => X[X['Award Year'].ge(2018)].groupby('Agency').size()",
  "(X) => X[X['Award Year'].ge(2018)].groupby('Phase')['Proposal Award Date'].max()",
  "(X) => X[X['Award Year'].gt(3000)].groupby('Phase')['Award Amount'].sum()",
  "(X) => X[X['Award Year'].gt(3000)]['State'].value_counts()",
  "(X) => X.select({ City: 'State', State: 'State', 'Award Year': 'Award Year', 'Award Amount': 'Award Amount' })[X['Award Year'].ge(2018)].groupby('City')['Award Amount'].sum()",
];

// runs that write into what they were handed over a kept filter: answers, a grouping's ids, an index
// (the Series' labels), a filtered table kept in the session's globals and changed in a later run
const WRITES = [
  "(X) => { const g = X.filter((d) => d.Phase === 'Phase II').groupby('State'); const k = g.groups().keys; k[g.indices()[0]] = (k[g.indices()[0]] + 1) % g.groups().size; return g.count().orderby('State'); }",
  "(X) => { const r = X.filter((d) => d.Phase === 'Phase II').groupby('State').count(); r.array('count')[0] = 7; return r; }",
  "(X) => { const r = X[X['Award Year'].ge(2018)].groupby('Award Year')['Award Amount'].sum(); r.array('Award Amount')[0] = 7; return r; }",
  "(X) => { const r = X[X.Phase.eq('Phase II')]['State'].value_counts(); r.array('count')[0] = 7; return r; }",
  "(X) => { const f = X[X.Phase.eq('Phase II')]; f.indices()[4] = 1; return __out(f.State.value_counts()); }",
  "(X) => { const f = X[X.Phase.eq('Phase II')]; f.indices()[4] = 1; return f['Award Amount'].sum(); }",
  "(X) => { const f = X.filter((d) => d.Phase === 'Phase II'); return [Object.keys(f).includes('_index'), f.indices() === f.indices(), f.indices().length]; }",
  "(X) => __keep(X, 'p2', () => X.filter((d) => d.Phase === 'Phase II')).groupby('State').count().orderby('State')",
  "(X) => { const f = __keep(X, 'p2', () => X.filter((d) => d.Phase === 'Phase II')); return f.indices().length; }",
  "(X) => __keep(X, 'p2', () => X.filter((d) => d.Phase === 'Phase II')).groupby('State').count().orderby('State')",
];

describe.each(['isolated-vm', 'quickjs'] as const)('answers kept over a kept filter on %s', (engine) => {
  it('give what Arquero and the plain Series give, asked again, after runs that write what they were handed', async () => {
    await using box = await createSandbox({ engine });
    expect((await box.run(SETUP)).ok).toBe(true);
    for (let pass = 0; pass < 2; pass++) {
      for (const program of [...VERBS, ...SERIES, ...WRITES, ...VERBS.slice(0, 4), ...SERIES.slice(0, 4)]) {
        for (let round = 0; round < 2; round++) {
          const r = await box.run(`__pair(${program})`);
          expect(r.ok, program).toBe(true);
          const [fast, plain] = r.value as [string, string];
          expect(fast, `${program} (pass ${pass + 1}, run ${round + 1})`).toEqual(plain);
        }
      }
    }
  }, 240_000);
});

// A run that writes into a filtered table's own mask or index makes that table disagree with itself
// (its row count, bits and index), and Arquero's verbs and the fast paths read such a table
// differently (as before session 23): no plain answer to compare with. So each attack runs on
// award_data with a filter of its own literal (K), twice: the first run's filter is computed (not yet
// kept), the second is the kept one, whose table must be taken for the kept filter no longer; the two
// must agree. Then the filter asked cleanly must still agree with the plain copy (nothing kept changed).
const ATTACKS = [
  // the mask's words: a row dropped and one added, a word flipped, zeroed, replaced
  "(X) => { const f = X.filter((d) => d['Award Amount'] > K); f.mask().clear(f.indices()[0]); f.mask().set(0); return f.groupby('State').count().orderby('State'); }",
  "(X) => { const f = X.filter((d) => d['Award Amount'] > K); f.mask()._bits[3] = ~f.mask()._bits[3]; return f.groupby('State').count().orderby('State'); }",
  "(X) => { const g = X.filter((d) => d['Award Amount'] > K).groupby('State'); g.mask()._bits[5] = 0; return g.rollup({ n: op.count(), s: op.sum('Award Amount') }).orderby('State'); }",
  "(X) => { const f = X.filter((d) => d['Award Amount'] > K); f.mask()._bits[5] = 0; return f.rollup({ n: op.count(), s: op.sum('Award Amount') }); }",
  "(X) => { const f = X.filter((d) => d['Award Amount'] > K); f.mask()._bits = new Uint32Array(f.mask()._bits.length); return f.groupby('State').count(); }",
  "(X) => { const f = X.filter((d) => d['Award Amount'] > K); f.mask()._bits[1] = 0; return f.create({ filter: f.mask() }).groupby('State').count().orderby('State'); }",
  "(X) => { const f = X[X['Award Amount'].gt(K)]; f.mask()._bits[2] = 0xffffffff; return [__dump(f.groupby('State').count().orderby('State')), __out(f.State.value_counts()), __dump(f.groupby('Phase').agg({ 'Award Amount': 'sum' }))]; }",
  // the index: written into once read, assigned, frozen
  "(X) => { const f = X.filter((d) => d['Award Amount'] > K); const ix = f.indices(); ix[0] = ix[9]; return f.groupby('State').count().orderby('State'); }",
  "(X) => { const f = X.filter((d) => d['Award Amount'] > K); const ix = f.indices(); ix[1] = 3; return f.rollup({ s: op.sum('Award Amount') }); }",
  "(X) => { const f = X.filter((d) => d['Award Amount'] > K); f._index = f.indices().slice().reverse(); return f.groupby('State').count(); }",
  "(X) => { const f = X.filter((d) => d['Award Amount'] > K); Object.freeze(f); const a = f.indices(); a[0] = 2; return [a === f.indices(), __dump(f.groupby('State').count().orderby('State'))]; }",
  "(X) => { const f = X[X['Award Amount'].gt(K)]; f.indices()[0] = 5; return [__dump(f.groupby('Phase').agg({ 'Award Amount': 'sum' })), __out(f.State.value_counts()), __dump(f.groupby('State').count())]; }",
  // a grouped table's mask changed between the group-by and the agg
  "(X) => { const g = X[X['Award Amount'].gt(K)].groupby('Phase'); g.mask()._bits[2] = 0; return [__dump(g['Award Amount'].sum()), __dump(g.agg({ 'Award Amount': ['sum', 'mean'] })), __dump(g.size())]; }",
];

// what the attacks' filters are asked cleanly afterwards: must agree with the plain copy
const CLEAN = [
  "(X) => X.filter((d) => d['Award Amount'] > K).groupby('State').count().orderby('State')",
  "(X) => X.filter((d) => d['Award Amount'] > K).groupby('State').rollup({ n: op.count(), s: op.sum('Award Amount') }).orderby('State')",
  "(X) => X.filter((d) => d['Award Amount'] > K).rollup({ n: op.count(), s: op.sum('Award Amount') })",
  "(X) => [X[X['Award Amount'].gt(K)].State.value_counts(), X[X['Award Amount'].gt(K)].groupby('Phase')['Award Amount'].sum()]",
  "(X) => { const g = X[X['Award Amount'].gt(K)].groupby('Phase'); return [g['Award Amount'].sum(), g.agg({ 'Award Amount': ['sum', 'mean'] }), g.size()]; }",
];

describe.each(['isolated-vm', 'quickjs'] as const)('a kept filter whose table a run changed, on %s', (engine) => {
  it('is no longer taken for the kept filter', async () => {
    await using box = await createSandbox({ engine });
    expect((await box.run(SETUP)).ok).toBe(true);
    for (let a = 0; a < ATTACKS.length; a++) {
      const program = ATTACKS[a]!.replaceAll('K', String(50_000 + a * 7_919));
      const cold = await box.run(`__pair(${program})[0]`);
      const warm = await box.run(`__pair(${program})[0]`);
      expect(cold.ok && warm.ok, program).toBe(true);
      expect(warm.value, program).toEqual(cold.value);
      for (const form of CLEAN) {
        const clean = form.replaceAll('K', String(50_000 + a * 7_919));
        const r = await box.run(`__pair(${clean})`);
        const [fast, plain] = r.value as [string, string];
        expect(fast, `${clean} after ${program}`).toEqual(plain);
      }
    }
  }, 240_000);
});

// Two kept filters of the same row count over other rows: answers are kept by the filter, not its count
describe.each(['isolated-vm', 'quickjs'] as const)('two kept filters of as many rows, on %s', (engine) => {
  it('keep answers of their own', async () => {
    await using box = await createSandbox({ engine });
    expect((await box.run(SETUP)).ok).toBe(true);
    // thresholds with exactly m amounts above the one and m below the other (a null is below any number in JS)
    const found =
      await box.run(`const a = award_data.array('Award Amount').filter((v) => v != null).sort((p, q) => p - q);
let out = null;
for (let m = 50; m < a.length / 2 && out === null; m++) if (a[a.length - 1 - m] < a[a.length - m] && a[m - 1] < a[m]) out = [a[a.length - 1 - m], a[m]];
out`);
    const [high, low] = found.value as [number, number];
    const forms = [
      `(X) => X.filter((d) => d['Award Amount'] > ${high}).rollup({ n: op.count(), s: op.sum('Award Amount'), m: op.mean('Award Amount') })`,
      `(X) => X.filter((d) => d['Award Amount'] != null && d['Award Amount'] < ${low}).rollup({ n: op.count(), s: op.sum('Award Amount'), m: op.mean('Award Amount') })`,
      `(X) => X[X['Award Amount'].gt(${high})].groupby('Phase')['Award Amount'].sum()`,
      `(X) => X[X['Award Amount'].lt(${low})].groupby('Phase')['Award Amount'].sum()`,
    ];
    for (let round = 0; round < 3; round++) {
      for (const program of forms) {
        const r = await box.run(`__pair(${program})`);
        const [fast, plain] = r.value as [string, string];
        expect(fast, `${program} (run ${round + 1})`).toEqual(plain);
      }
    }
  }, 120_000);
});
