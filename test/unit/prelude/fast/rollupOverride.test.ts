// The fast rollup computes op.sum, op.mean, op.count ... by name. A guest that replaces one with
// aq.addAggregateFunction(..., { override: true }) must get its own definition's answer, as Arquero
// gives it, not the built-in one.
import { afterAll, describe, expect, test } from 'vitest';
import { createSandbox, shutdown } from '../../../../src/index.js';

afterAll(() => shutdown());

// an aggregate that counts the values it is handed (Arquero hands `add` the valid values only)
const COUNTING = `{ create: () => ({ init: (s) => { s.v = 0 }, add: (s) => { s.v += 1 }, rem: (s) => { s.v -= 1 }, value: (s) => s.v }), param: [1, 0] }`;
// an aggregate of no field that answers 7 per group
const SEVEN = `{ create: () => ({ init: () => {}, add: () => {}, rem: () => {}, value: () => 7 }), param: [0, 0] }`;

describe.each(['isolated-vm', 'quickjs'] as const)('rollups with aggregates the guest replaced on %s', (engine) => {
  test.each([
    [
      'sum',
      COUNTING,
      "{ s: op.sum('Award Amount'), m: op.mean('Award Amount') }",
      "{ s: op.valid('Award Amount'), m: op.mean('Award Amount') }",
    ],
    ['mean', COUNTING, "{ m: op.mean('Number Employees') }", "{ m: op.valid('Number Employees') }"],
    ['max', COUNTING, "{ x: (d) => op.max(d['Award Year']) }", "{ x: (d) => op.valid(d['Award Year']) }"],
    ['distinct', COUNTING, "{ k: op.distinct('Agency') }", "{ k: op.valid('Agency') }"],
    ['count', SEVEN, '{ n: op.count() }', '{ n: () => 7 }'],
  ])(
    '%s replaced: the guest definition answers, grouped and not',
    async (name, def, values, expected) => {
      await using replaced = await createSandbox({ engine });
      await using plain = await createSandbox({ engine });
      const install = `aq.addAggregateFunction('${name}', ${def}, { override: true });\n`;
      for (const group of ["award_data.groupby('Phase')", 'award_data']) {
        const got = await replaced.run(`${install}${group}.rollup(${values}).objects()`);
        const want = await plain.run(`${group}.rollup(${expected}).objects()`);
        expect(got.ok, got.error?.message).toBe(true);
        expect(want.ok, want.error?.message).toBe(true);
        expect(got.value, `${name} ${group}`).toEqual(want.value);
      }
    },
    120_000,
  );
});
