// The Arquero closure trap: closures in filter/derive/groupby/orderby work and give the same rows
// and values as the compiled (or escaped) equivalent; unknown columns get "did you mean".
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(() => {
  h = createHarness();
});
afterAll(() => h.dispose());
const v = async (code: string) => {
  const r = await h.run(code);
  if (!r.ok) throw new Error(`${r.error!.name}: ${r.error!.message}`);
  return r.value;
};

describe('closures run as real JavaScript, with the same results', () => {
  test('filter with a free variable equals the compiled filter and the escaped one', async () => {
    const closure = await v("var lim = 500000; award_data.filter(d => d['Award Amount'] > lim).objects()");
    expect(closure).toEqual(await v("award_data.filter(d => d['Award Amount'] > 500000).objects()"));
    expect(closure).toEqual(await v("award_data.filter(aq.escape(d => d['Award Amount'] > lim)).objects()"));
    expect((closure as unknown[]).length).toBe(3);
  });
  test('derive mixes closures, compiled expressions and aggregates', async () => {
    const r = await v(`var rate = 0.1, label = (p) => p.toUpperCase();
      award_data.derive({ fee: d => d['Award Amount'] * rate, P: d => label(d.Phase), avg: d => op.mean(d['Award Amount']) }).select('fee', 'P', 'avg').objects().slice(0, 3)`);
    expect(r).toEqual([
      { fee: 15000, P: 'PHASE I', avg: expect.closeTo(489285.68, 1) },
      { fee: 75000, P: 'PHASE II', avg: expect.closeTo(489285.68, 1) },
      { fee: 0, P: 'PHASE I', avg: expect.closeTo(489285.68, 1) },
    ]);
  });
  test('derive closure respects filters, groups and derive options', async () => {
    expect(
      await v(
        "var k = 2; award_data.filter(d => d.Agency === 'NSF').derive({ z: d => d['Award Year'] * k }, { before: 'Agency' }).columnNames().slice(0, 2)",
      ),
    ).toEqual(['z', 'Agency']);
    expect(
      await v(
        "var k2 = 2; award_data.filter(d => d.Agency === 'NSF').derive({ z: d => d['Award Year'] * k2 }).array('z')",
      ),
    ).toEqual([4042, 4046]);
  });
  test('a local variable in a user function and a computed column name', async () => {
    expect(
      await v(
        "function over(t, x) { return t.filter(d => d['Award Amount'] > x).numRows(); } over(award_data, 700000)",
      ),
    ).toBe(3);
    expect(await v("var col = 'Award Year'; award_data.filter(d => d[col] >= 2022).numRows()")).toBe(2);
  });
  test('prelude helpers and op.* work inside closures', async () => {
    expect(
      await v(
        "var word = 'quantum'; award_data.filter(d => contains(d['Award Title'], word, { case: false }) && op.year(d['Proposal Award Date']) >= 2019).numRows()",
      ),
    ).toBe(2);
  });
  test('groupby and orderby with closures', async () => {
    expect(
      await v(
        "var cut = 200000; award_data.groupby({ big: d => d['Award Amount'] > cut }).agg({ 'Award Year': 'size' }).objects()",
      ),
    ).toEqual([
      { big: false, 'Award Year': 5 },
      { big: true, 'Award Year': 3 },
    ]);
    expect(await v("var sign = -1; award_data.orderby(d => sign * d['Award Year']).array('Award Year')")).toEqual([
      2023, 2022, 2021, 2021, 2020, 2020, 2019, 2019,
    ]);
  });
  test("rollup with a closure keeps Arquero's error and explains the fix", async () => {
    const r = await h.run("var t2 = 2;\naward_data.rollup({ s: d => op.sum(d['Award Amount']) * t2 })");
    expect(r.error).toMatchObject({ line: 2 });
    expect(r.error!.hint).toContain('params({ t2 })');
    expect(
      await v("var t3 = 2; award_data.params({ t3 }).rollup({ s: d => op.sum(d['Award Amount']) * t3 }).get('s', 0)"),
    ).toBe(6849999.5);
  });
  test('a closure using aggregate ops is not run row by row', async () => {
    const r = await h.run("var f = 1; award_data.filter(d => d['Award Amount'] > op.mean(d['Award Amount']) * f)");
    expect(r.ok).toBe(false);
    expect(r.error!.message).toMatch(/Invalid variable reference/);
  });
});

describe('method calls on values run as JavaScript (Arquero would drop the receiver)', () => {
  test('string methods in filter give the JavaScript answer', async () => {
    // Titles: 'Quantum sensing…', 'quantum computing…' match case-insensitively; a blank and a null do not.
    expect(
      await v("award_data.filter(d => (d['Award Title'] || '').toLowerCase().includes('quantum')).numRows()"),
    ).toBe(2);
    expect(await v("award_data.filter(d => (d['Award Title'] ?? '').includes('Quantum')).numRows()")).toBe(1);
    expect(await v("award_data.filter(d => /quantum/i.test(d['Award Title'] ?? '')).numRows()")).toBe(2);
    expect(await v("award_data.filter(d => d['Award Title']?.startsWith('Solar')).numRows()")).toBe(1);
  });
  test('string methods in derive, groupby and orderby', async () => {
    expect(
      await v("award_data.derive({ w: d => (d['Award Title'] ?? '').split(' ')[0] }).array('w').slice(0, 2)"),
    ).toEqual(['Quantum', 'AI-driven']);
    expect(
      await v("award_data.derive({ s: d => (d['Award Title'] ?? '').slice(0, 3) }).array('s').slice(0, 2)"),
    ).toEqual(['Qua', 'AI-']);
    expect(
      await v(
        "award_data.groupby({ q: d => (d['Award Title'] ?? '').toLowerCase().includes('quantum') }).count().orderby('q').array('count')",
      ),
    ).toEqual([6, 2]);
  });
  test('op and Math calls still compile (no row-by-row fallback needed)', async () => {
    expect(await v("award_data.filter(d => op.includes(op.lower(d['Award Title']), 'quantum')).numRows()")).toBe(2);
    expect(await v("award_data.filter(d => Math.max(d['Award Year'], 0) >= 2022).numRows()")).toBe(2);
  });
});

describe('unknown columns: did you mean', () => {
  test.each([
    ["award_data.filter(d => d['Awrd Amount'] > 1)", 'Award Amount'],
    ['award_data.filter(d => d.agency === "DOD")', 'Agency'],
    ["var lim2 = 1; award_data.filter(d => d['award amount'] > lim2)", 'Award Amount'],
    ["award_data.groupby('agency')", 'Agency'],
    ["award_data.select('Award_Amount')", 'Award Amount'],
    ["award_data.orderby('Award Yr')", 'Award Year'],
    ["value_counts(award_data, 'phase')", 'Phase'],
    ["award_data.groupby('Agency').agg({ 'award amount': 'sum' })", 'Award Amount'],
    ["sort_values(award_data, 'AwardYear')", 'Award Year'],
  ])('%s', async (code, guess) => {
    const r = await h.run(code);
    expect(r.error).toMatchObject({ name: 'KeyError' });
    expect(r.error!.message).toContain(`Did you mean '${guess}'?`);
    expect(r.error!.line).toBe(1);
  });
});
