// The prelude's helpers answer the same in a realm the run polluted as in a clean session, for the
// pollution the prelude binds itself against when it loads (scripts/build-prelude.mjs bindBuiltins:
// global constructors, frozen copies of JSON and Reflect; prelude/intrinsics.ts: Map, Set and
// WeakMap with their own methods, caches without holes). Before session 14,
// `Object.prototype[0] = 'z'` made the first entry of every dictionary column read 'z'
// (value_counts, groupby, objects(), array(), tolist(), print), `Map.prototype.get = ...` or
// `Map = ...` broke table verbs, `JSON.stringify = ...` broke objects(). Both engines; the next run
// of the polluted session must still answer what a clean session answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { PRELUDE_IMMUNE, PROTOS } from '../../helpers/pollutions.js';
import { runOutcome } from '../../helpers/runOutcome.js';

afterAll(() => shutdown());

const HELPERS: Record<string, string> = {
  value_counts: 'award_data.Agency.value_counts()',
  'value_counts of numbers': "award_data['Award Year'].value_counts()",
  'groupby().agg': "award_data.groupby('Agency').agg({ 'Award Amount': ['sum', 'mean', 'count', 'size'] })",
  'groupby()[col].sum()': "award_data.groupby('Phase')['Award Amount'].sum()",
  describe: 'award_data.describe()',
  'Series sum, mean, max, median, std':
    "[award_data['Award Amount'].sum(), award_data['Award Amount'].mean(), award_data['Award Amount'].max(), award_data['Award Amount'].median(), award_data['Award Amount'].std()]",
  'objects()': "award_data.select('Agency', 'Award Amount').objects().slice(0, 3)",
  'tolist()': "award_data.select('Phase', 'Award Year').tolist().slice(0, 3)",
  'array()': "[award_data.array('Agency').slice(0, 3), award_data.array('Award Amount').slice(0, 3)]",
  'filter, select, orderby':
    "award_data.filter(d => d['Award Amount'] > 1e6).select('Company', 'Award Amount').orderby('Company').slice(0, 5)",
  rollup: "award_data.groupby('Agency').rollup({ n: op.count(), s: op.sum('Award Amount') })",
  print: 'print(award_data.Agency.value_counts().head(3)); 1',
  sort_values: "award_data.sort_values('Award Amount', { ascending: false }).head(3).select('Company', 'Award Amount')",
  'str.contains': "award_data['Award Title'].str.contains('quantum', { case: false }).sum()",
  'dt.year': "award_data['Proposal Award Date'].dt.year.value_counts()",
};

/** The shape a run's answer is compared by (a table's rows, a value, printed text, an error). */
const answer = (r: Awaited<ReturnType<Awaited<ReturnType<typeof createSandbox>>['run']>>) => ({
  ...runOutcome(r),
  table: r.table && { columns: r.table.columns, rows: r.table.rows },
});

describe.each(['isolated-vm', 'quickjs'] as const)('prelude helpers in a polluted realm on %s', (engine) => {
  const clean: Record<string, ReturnType<typeof answer>> = {};
  beforeAll(async () => {
    await using box = await createSandbox({ engine });
    for (const [name, code] of Object.entries(HELPERS)) clean[name] = answer(await box.run(code));
  });

  it.each(Object.entries(PRELUDE_IMMUNE))(
    '%s: every helper answers as in a clean session, this run and the next',
    async (_n, pollution) => {
      await using box = await createSandbox({ engine });
      for (const [name, code] of Object.entries(HELPERS)) {
        expect(clean[name]!.ok, name).toBe(true);
        expect(answer(await box.run(`${PROTOS}${pollution}\n${code}`)), name).toEqual(clean[name]);
      }
      // the pollution stays in the session (a session keeps what its runs did): the next run still works
      for (const [name, code] of Object.entries(HELPERS))
        expect(answer(await box.run(code)), name).toEqual(clean[name]);
    },
  );
});
