// orderby with its parse kept for the session (prelude/fast/orderbyKept.ts): column names and
// aq.desc(name) keys take the kept comparator source; the same keys written as functions
// (`d => d.V`, which the kept path leaves to Arquero) are the reference. Same rows in the same order
// (ties keep row order), grouped tables too, the kept source reused across tables with the same
// columns, and a run that adds a property the parse reads gets Arquero's parse again.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from '../harness.js';
import { differentialHelpers, diffRuns, install } from './differentialRuns.js';
import { EDGE_TABLES, tableArb } from './randomTables.js';

const SEED = Number(process.env.FAST_CHECK_SEED ?? 20261127);
const TABLES = [...EDGE_TABLES, ...fc.sample(tableArb, { numRuns: 12, seed: SEED })].map((t, i) => ({
  ...t,
  name: `t${i}`,
}));
const DUMP =
  'var __dump = (x) => JSON.stringify([x.columnNames(), x.indices(), x.objects().map((r) => Object.values(r).map(__ser))]);';

let h: Harness;
beforeAll(async () => {
  h = createHarness({ tables: TABLES });
  await install(
    h,
    `${differentialHelpers(
      TABLES.map((t) => t.name),
      DUMP,
    )}\nvar tables = { ${TABLES.map((t) => t.name).join(', ')} }; true`,
  );
});
afterAll(() => h.dispose());

/** Each pair: the kept form and the same order through function keys; both must dump alike. */
const PAIRS: Array<[string, string]> = [
  // grouped first, then the same keys ungrouped: a grouped table's source reads its group keys
  ["X.groupby('K2').orderby('V')", "X.groupby('K2').orderby((d) => d.V)"],
  ["X.orderby('V')", 'X.orderby((d) => d.V)'],
  ["X.orderby(aq.desc('V'))", 'X.orderby(aq.desc((d) => d.V))'],
  ["X.orderby('K1', aq.desc('Y'), 'D')", 'X.orderby((d) => d.K1, aq.desc((d) => d.Y), (d) => d.D)'],
  ["X.orderby(['K2', aq.desc('V')])", 'X.orderby([(d) => d.K2, aq.desc((d) => d.V)])'],
  ["X.groupby('K2').orderby(aq.desc('V'), 'Y')", "X.groupby('K2').orderby(aq.desc((d) => d.V), (d) => d.Y)"],
  [
    "X.filter((d) => d.Y > 0).orderby(aq.desc('D')).slice(0, 3)",
    'X.filter((d) => d.Y > 0).orderby(aq.desc((d) => d.D)).slice(0, 3)',
  ],
  ["X.groupby('K1').count().orderby('K1')", "X.groupby('K1').count().orderby((d) => d.K1)"],
];

describe('orderby with its parse kept', () => {
  test('the same order as the function keys Arquero parses, run after run', async () => {
    // each expression dumps the kept form's answer, or the two answers when they differ
    const exprs = PAIRS.map(
      ([kept, ref]) =>
        `(X) => { const a = __dump(${kept}); const b = __dump(${ref}); return a === b ? a : 'DIFF ' + a + ' | ' + b; }`,
    );
    for (let round = 0; round < 3; round++) {
      const r = await h.run(
        `${JSON.stringify(TABLES.map((t) => t.name))}.flatMap((n) => [${exprs.join(',')}].map((e) => e(tables[n]))).filter((s) => s.startsWith('DIFF')).slice(0, 2)`,
      );
      expect(r.ok && r.value, JSON.stringify(r.error)).toEqual([]);
    }
    // and on each table's plain copy (the same column names: the kept source of the host table)
    expect(
      await diffRuns(
        h,
        PAIRS.map(([kept]) => `(X) => ${kept}`),
      ),
    ).toEqual([]);
  }, 180_000);

  test('a plain copy first, then the host table: array columns are read by index, others by at()', async () => {
    const r = await h.run(
      `${JSON.stringify(TABLES.map((t) => t.name))}.filter((n) => { const X = tables[n]; const P = __plain(X); const a = P.orderby('Y', aq.desc('K2')).indices().join(); const b = X.orderby('Y', aq.desc('K2')).indices().join(); const c = X.orderby((d) => d.Y, aq.desc((d) => d.K2)).indices().join(); return a !== c || b !== c; })`,
    );
    expect(r.ok && r.value, JSON.stringify(r.error)).toEqual([]);
  });
  test('an unknown column fails as in Arquero, and the next good call still sorts', async () => {
    const r = await h.run(
      "const msg = (f) => { try { f(); return 'no error'; } catch (e) { return e.message; } }; [msg(() => t3.orderby('Nope')), msg(() => t3.orderby(aq.desc('Nope'))), t3.orderby(aq.desc('V')).indices().join()]",
    );
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    const [a, b, order] = r.value as string[];
    expect(a).not.toBe('no error');
    expect(b).not.toBe('no error');
    const ref = await h.run('t3.orderby(aq.desc((d) => d.V)).indices().join()');
    expect(order).toBe(ref.value);
  });

  test('a property the parse reads, added by the run, reaches Arquero as before', async () => {
    // an inherited `collate` makes every key a collated one: the kept source (no collation) must not be used
    const r = await h.run(`const before = t4.orderby('K1').indices().join();
Object.prototype.collate = (a, b) => (a < b ? 1 : a > b ? -1 : 0);
let kept, ref;
try { kept = t4.orderby('K1').indices().join(); ref = t4.orderby((d) => d.K1).indices().join(); }
finally { delete Object.prototype.collate; }
[before === kept, kept === ref]`);
    expect(r.ok && r.value, JSON.stringify(r.error)).toEqual([false, true]);
  });
});
