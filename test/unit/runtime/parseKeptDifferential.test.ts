// The parses the fast verbs keep per source text (prelude/fast/parseKept.ts) on both engines: each
// program runs twice in one session, on award_data (host columns: the fast paths, which read the
// kept parse) and on a plain-array copy (Arquero's own verbs), and the exact dumps (errors
// included) must agree every time. The programs change what a parse depends on between runs of
// the same text: the table's columns, its params, a closure's own toString, op arguments, and the
// functions registered.
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { PLAIN_DUMP_SETUP } from '../../helpers/bothAgree.js';

afterAll(() => shutdown());

const SETUP = `${PLAIN_DUMP_SETUP}var __pair = (f) => {
  const run = (X) => { try { return __dump(f(X)); } catch (e) { return 'ERR ' + e.name + ': ' + e.message; } };
  return [run(award_data), run(__plain)];
};
1`;

const PROGRAMS = [
  "(X) => X.filter((d) => d['Award Year'] > 2015).numRows()",
  // the same text over a table without that column: Arquero's error, not the kept parse
  "(X) => X.select('Agency').filter((d) => d['Award Year'] > 2015).numRows()",
  '(X) => X.filter("d[\'Award Year\'] > 2015").numRows()',
  // params: the same text, another value
  "(X) => X.params({ k: 2018 }).filter((d, $) => d['Award Year'] > $.k).numRows()",
  "(X) => X.params({ k: 2021 }).filter((d, $) => d['Award Year'] > $.k).numRows()",
  // a closure whose own toString Arquero reads instead of its source
  "(X) => { const f = (d) => d['Award Year'] > 2015; f.toString = () => \"d => d['Award Year'] > 2020\"; return X.filter(f).numRows(); }",
  // op objects that differ in an argument only
  "(X) => X.rollup({ q: op.quantile('Award Amount', 0.25), m: op.mean('Award Amount'), lo: op.min('Award Year') })",
  "(X) => X.rollup({ q: op.quantile('Award Amount', 0.75), m: op.mean('Award Amount'), lo: op.min('Award Year') })",
  "(X) => X.rollup({ n: op.count(), s: op.sum('Number Employees') })",
  "(X) => X.select('Agency', 'Award Amount').rollup({ n: op.count(), s: op.sum('Number Employees') })",
  // derive: the same text, another table; a closure's own toString
  "(X) => X.derive({ m: (d) => d['Award Amount'] / 1e6 }).filter((d) => d.m > 0.5).numRows()",
  "(X) => X.select('Agency', 'Number Employees').derive({ m: (d) => d['Award Amount'] / 1e6 }).numRows()",
  "(X) => { const f = (d) => d['Award Amount'] / 1e6; f.toString = () => \"d => d['Award Amount'] / 1e3\"; return X.derive({ m: f }).filter((d) => d.m > 500).numRows(); }",
  // a function not registered, then registered, then replaced
  "(X) => X.filter((d) => op.plus1(d['Award Year']) > 2016).numRows()",
  "(X) => { aq.addFunction('plus1', (x) => x + 1, { override: true }); return X.filter((d) => op.plus1(d['Award Year']) > 2016).numRows(); }",
  "(X) => { aq.addFunction('plus1', (x) => x - 3, { override: true }); return X.filter((d) => op.plus1(d['Award Year']) > 2016).numRows(); }",
  "(X) => X.filter((d) => d.Phase === 'Phase II' && d['Award Amount'] > 5e5).rollup({ s: op.sum('Award Amount'), mx: op.max('Award Amount') })",
];

describe.each(['isolated-vm', 'quickjs'] as const)('kept parses on %s', (engine) => {
  it('give what Arquero gives for the same text, run after run', async () => {
    await using box = await createSandbox({ engine });
    expect((await box.run(SETUP)).ok).toBe(true);
    for (const program of PROGRAMS) {
      for (let round = 0; round < 2; round++) {
        const r = await box.run(`__pair(${program})`);
        expect(r.ok, program).toBe(true);
        const [fast, plain] = r.value as [string, string];
        expect(fast, `${program} (run ${round + 1})`).toEqual(plain);
      }
    }
  });
});
