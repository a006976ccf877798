// The fast verbs' loops (prelude/fast/rollup.ts and rollupOne.ts, filter.ts, deriveEval.ts,
// arrayChain.ts) on both engines: each program runs on award_data (host columns: the typed paths)
// and on a copy of it made of plain arrays (which no fast path takes: Arquero's and the prelude's
// own code), in one session, and the exact dumps must agree (-0, NaN, null and undefined told apart).
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { PLAIN_DUMP_SETUP, expectBothAgree } from '../../helpers/bothAgree.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { ARRAY_CHAIN_GLOBAL } from '../../../schema/arrayChain.js';

afterAll(() => shutdown());

const SETUP = `${PLAIN_DUMP_SETUP}var __both = (f) => {
  const run = (X) => { try { return __dump(f(X)); } catch (e) { return 'ERR ' + e.name + ': ' + e.message; } };
  const [a, b] = [run(award_data), run(__plain)];
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  // the first difference and what precedes it (the dumps themselves are larger than a result)
  return [a.slice(0, 4), a.slice(Math.max(0, at - 200), at + 100), b.slice(Math.max(0, at - 200), at + 100), a.length === b.length];
};
1`;

const ONE_GROUP =
  "{ s: op.sum('Award Amount'), m: op.mean('Award Amount'), a: op.average('Number Employees'), n: op.count(), " +
  "va: op.valid('Number Employees'), iv: op.invalid('Award Amount'), kv: op.valid('Phase'), ki: op.invalid('Agency'), " +
  "v: op.variance('Number Employees'), vp: op.variancep('Award Amount'), sd: op.stdev('Award Amount'), sp: op.stdevp('Award Year'), " +
  "mn: op.min('Award Amount'), mx: op.max('Award Year') }";

const PROGRAMS = [
  // one group: every reducer on locals, unfiltered, filtered, ordered, empty
  `(X) => X.rollup(${ONE_GROUP})`,
  `(X) => X.filter((d) => d.Phase === 'Phase II').rollup(${ONE_GROUP})`,
  `(X) => X.orderby(aq.desc('Award Amount'), 'Company').rollup(${ONE_GROUP})`,
  `(X) => X.filter((d) => d['Award Amount'] > 1e12).rollup(${ONE_GROUP})`,
  '(X) => X.count()',
  "(X) => X.filter((d) => d['Award Year'] >= 2015).count({ as: 'n' })",
  // grouped reducers
  `(X) => X.groupby('Agency').rollup(${ONE_GROUP})`,
  `(X) => X.filter((d) => d['Award Year'] < 2010).groupby('Phase', 'Program').rollup(${ONE_GROUP})`,
  // filters: number comparisons, null tests, the visible rows of a filtered table
  "(X) => X.filter((d) => d['Award Amount'] > 1e6).numRows()",
  "(X) => X.filter((d) => d['Award Amount'] / 1e6 > 0.5).numRows()",
  // every comparison operator from either side, on a column with nulls (null < 3 is true, null !== 5 too)
  "(X) => [X.filter((d) => d['Number Employees'] !== 5).numRows(), X.filter((d) => 10 < d['Number Employees']).numRows(), X.filter((d) => d['Award Year'] === 2020).numRows(), X.filter((d) => 2019 >= d['Award Year']).numRows(), X.filter((d) => d['Number Employees'] < 3).numRows(), X.filter((d) => -0 <= d['Number Employees']).numRows()]",
  "(X) => X.filter((d) => d.Phase === 'Phase I').filter((d) => d['Number Employees'] <= 10).array('Award Amount')",
  // derive: arithmetic, comparisons and equality on typed arrays, then read back
  "(X) => X.derive({ m: (d) => d['Award Amount'] / 1e6, k: (d) => d['Award Amount'] * 2, p: (d) => d['Number Employees'] + d['Award Year'], q: (d) => 1 - d['Number Employees'], r: (d) => d['Award Year'] / d['Number Employees'] }).select('m', 'k', 'p', 'q', 'r')",
  "(X) => X.derive({ a: (d) => d['Award Amount'] > 5e5, b: (d) => 2015 <= d['Award Year'], c: (d) => d['Number Employees'] == null, e: (d) => d['Number Employees'] !== null, f: (d) => d['Award Year'] === 2020, g: (d) => d['Award Year'] != 2019 }).select('a', 'b', 'c', 'e', 'f', 'g')",
  "(X) => X.derive({ m: (d) => d['Award Amount'] / 1e6 }).filter((d) => d.m > 0.5).rollup({ n: op.count(), s: op.sum('m') })",
];

const CHAINS = [
  // chains on a column's array (fast/arrayChain.ts): counts, the array made, a sum
  "[award_data.array('Award Amount').filter(v => v != null).filter(v => v > 1e5).length, award_data.array('Number Employees').filter(v => v == null).length]",
  "const a = award_data.array('Award Amount').filter(v => v !== null).filter(v => v < 5e5);\n[a.length, a.reduce((s, v) => s + v, 0), a[0], a[a.length - 1]]",
  "award_data.array('Number Employees').filter(v => v != null && v > 3).reduce((s, v) => s + v, -0)",
];

describe.each(['isolated-vm', 'quickjs'] as const)('the fast verbs on %s', (engine) => {
  it('give the plain tables answers, verb by verb', async () => {
    await using box = await createSandbox({ engine });
    expect((await box.run(SETUP)).ok).toBe(true);
    await expectBothAgree(box, PROGRAMS);
  });

  it('chains on a column array give what the methods as written give', async () => {
    await using box = await createSandbox({ engine });
    for (const code of CHAINS) {
      // the reference: the same text with the rewrite off (a comment naming $sbtRow), the methods as written
      const plain = `${code}\n// $sbtRow`;
      expect(prepareCode(code).code, code).toContain(ARRAY_CHAIN_GLOBAL);
      expect(prepareCode(plain).code, code).not.toContain(ARRAY_CHAIN_GLOBAL);
      const [a, b] = [await box.run(code), await box.run(plain)];
      expect(a.ok, code).toBe(true);
      expect(JSON.stringify(a.value), code).toEqual(JSON.stringify(b.value));
    }
  });
});
