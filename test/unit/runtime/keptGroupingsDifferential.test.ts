// The groupings a session keeps and the answers computed over them (prelude/fast/keptGroupings.ts: a
// grouping of every row hands its ids only when someone reads `keys`; a rollup's and an agg's per-group
// answers over every row are kept with it) on both engines. Each step runs in one session on
// award_data (host columns: the kept paths) and on a plain-array copy (Arquero's own verbs and the
// prelude's plain agg), and the exact dumps (errors included) must agree at every step: the same
// question again, other columns under the same names, ordered and filtered tables, and runs that
// read, replace, assign, freeze or resize a grouping's ids or write into the answers they were handed.
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { PLAIN_DUMP_SETUP } from '../../helpers/bothAgree.js';

afterAll(() => shutdown());

const SETUP = `${PLAIN_DUMP_SETUP}var __pair = (f) => {
  const run = (X) => { try { return __dump(f(X)); } catch (e) { return 'ERR ' + e.name + ': ' + e.message; } };
  return [run(award_data), run(__plain)];
};
var __kept = {};
var __keep = (X, name, make) => { const k = name + (X === award_data ? ":a" : ":p"); return (__kept[k] ??= make()); };
1`;

const ALL_OPS =
  "{ n: op.count(), s: op.sum('Award Amount'), m: op.mean('Award Amount'), lo: op.min('Award Amount'), hi: op.max('Award Amount'), v: op.valid('Company'), i: op.invalid('Number Employees'), d: op.distinct('Agency'), md: op.median('Award Amount'), q: op.quantile('Award Amount', 0.25), sd: op.stdev('Award Amount') }";

const ROLLUPS = [
  "(X) => X.groupby('Award Year').count().orderby('Award Year')",
  "(X) => X.groupby('Agency').count({ as: 'n' })",
  `(X) => X.groupby('Phase').rollup(${ALL_OPS})`,
  "(X) => X.groupby('Agency', 'Phase').rollup({ n: op.count(), s: op.sum('Award Amount') })",
  "(X) => X.groupby('Phase').rollup({ q: op.quantile('Award Amount', 0), z: op.quantile('Award Amount', -0), t: op.quantile('Award Amount', 0.9) })",
  // dates are never kept (a run may change the Date it is handed: valuesAreTheRunsOwn.test.ts)
  "(X) => X.groupby('Phase').rollup({ d: op.max('Proposal Award Date'), e: op.min('Proposal Award Date') })",
  // a run writes into the answer it was handed: the next one gets its own
  "(X) => { const r = X.groupby('Phase').count(); r.array('count')[0] = 7; r.column('count')[1] = -1; return r; }",
  "(X) => X.groupby('Phase').count()",
  // the same names over other columns: another grouping, or the same grouping over other values
  "(X) => X.select({ Agency: 'Phase' }).groupby('Phase').count()",
  "(X) => X.select({ 'Number Employees': 'Award Amount', Phase: 'Phase' }).groupby('Phase').rollup({ s: op.sum('Award Amount') })",
  "(X) => X.groupby('Phase').derive({ 'Award Amount': (d) => d['Award Year'] * 2 }).rollup({ s: op.sum('Award Amount') })",
  // ordered and filtered grouped tables reduce their own rows, in their own order
  "(X) => X.groupby('Phase').orderby(aq.desc('Award Amount')).rollup({ s: op.sum('Award Amount'), n: op.count() })",
  "(X) => X.groupby('Phase').filter((d) => d['Award Year'] > 2015).count()",
  "(X) => X.filter((d) => d['Award Year'] > 2015).groupby('Phase').count()",
  "(X) => aq.table({ Phase: X.array('Phase').slice(0, 7) }).groupby('Phase').count()",
];

// a run that reads, replaces, assigns or resizes a grouping's ids: Arquero reads what the grouping holds
const IDS = [
  "(X) => { const g = X.groupby('Phase'); const k = g.groups().keys; k[0] = (k[0] + 1) % g.groups().size; return g.count(); }",
  "(X) => { const g = X.groupby('Phase'); const a = __dump(g.count()); const k = g.groups().keys; k[1] = (k[1] + 1) % g.groups().size; return a + __dump(g.count()); }",
  "(X) => { const g = X.groupby('Phase'); Object.defineProperty(g.groups(), 'keys', { value: new Uint32Array(X.totalRows()), writable: true }); return g.count(); }",
  "(X) => { const g = X.groupby('Phase'); const a = __dump(g.count()); g.groups().keys = new Uint32Array(X.totalRows()); return a + __dump(g.count()); }",
  "(X) => { const g = X.groupby('Agency'); g.groups().size += 2; return g.count().array('count'); }",
  "(X) => { const g = X.groupby('Phase'); Object.freeze(g.groups()); const k = g.groups().keys; k[2] = 0; return [k === g.groups().keys, __dump(g.count())]; }",
  "(X) => { const g = X.groupby('Agency'); return [Object.keys(g.groups()), JSON.stringify(g.groups()).length > 0, g.groups().keys === g.groups().keys]; }",
  // a grouping kept in the session's globals, its ids changed in a later run
  "(X) => __keep(X, 'agency', () => X.groupby('Agency')).count()",
  "(X) => { const g = __keep(X, 'agency', () => X.groupby('Agency')); g.groups().keys[3] = 0; return g.count(); }",
  "(X) => __keep(X, 'agency', () => X.groupby('Agency')).count()",
  "(X) => X.groupby('Agency').count()",
];

// the Series and agg forms over the same groupings (prelude/fast/agg.ts)
const AGGS = [
  "(X) => X.groupby('Phase')['Award Amount'].sum()",
  "(X) => X.groupby('Phase')['Award Amount'].mean()",
  "(X) => X.groupby('Agency').size()",
  "(X) => X.groupby('Award Year')['Company'].nunique()",
  "(X) => X.groupby('Phase')['Award Amount'].median()",
  "(X) => X.groupby('Phase').agg({ 'Award Amount': ['sum', 'mean', 'min', 'max', 'count', 'std'], 'Number Employees': 'var', Agency: ['first', 'last'] })",
  "(X) => X.groupby('Phase')['Proposal Award Date'].max()",
  "(X) => X.groupby('Phase')['Proposal Award Date'].first()",
  "(X) => { const r = X.groupby('Phase')['Award Amount'].sum(); r.array('Award Amount')[0] = 7; return r; }",
  "(X) => X.groupby('Phase')['Award Amount'].sum()",
  "(X) => X.select({ 'Award Amount': 'Number Employees', Phase: 'Phase' }).groupby('Phase')['Award Amount'].sum()",
  "(X) => { const g = X.groupby('Phase'); const k = g.groups().keys; k[0] = (k[0] + 1) % g.groups().size; return g['Award Amount'].sum(); }",
  "(X) => X.groupby('Phase').orderby('Award Amount')['Award Amount'].sum()",
];

describe.each(['isolated-vm', 'quickjs'] as const)('kept groupings and their answers on %s', (engine) => {
  it('give what Arquero and the plain agg give, asked again, after runs that change a grouping', async () => {
    await using box = await createSandbox({ engine });
    expect((await box.run(SETUP)).ok).toBe(true);
    for (let pass = 0; pass < 2; pass++) {
      for (const program of [...ROLLUPS, ...IDS, ...AGGS]) {
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
