// chart() and plot.*: Vega-Lite specs with inlined data, valid against the Vega-Lite JSON schema.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';

const require = createRequire(import.meta.url);
const Ajv = require('ajv');
const schema = JSON.parse(
  readFileSync(
    fileURLToPath(new URL('../../../node_modules/vega-lite/build/vega-lite-schema.json', import.meta.url)),
    'utf8',
  ),
);
const validate = new Ajv({ strict: false, allowUnionTypes: true }).compile(schema);

let h: Harness;
beforeAll(() => {
  h = createHarness();
});
afterAll(() => h.dispose());

const chartsOf = async (code: string) => {
  const r = await h.run(code);
  if (!r.ok) throw new Error(r.error!.message);
  return r.charts ?? [];
};

describe('plot helpers', () => {
  test.each([
    ["plot.bar(award_data, 'Agency')", 3],
    ["plot.bar(value_counts(award_data, 'Phase'), 'Phase', 'count', { title: 'By phase', horizontal: true })", 2],
    ["plot.line(award_data.groupby('Award Year').agg({ 'Award Amount': 'sum' }), 'Award Year', 'Award Amount')", 5],
    ["plot.line(award_data, 'Proposal Award Date', 'Award Amount')", 8],
    ["plot.hist(award_data, 'Award Amount', { bins: 4 })", 4],
    ["plot.scatter(award_data, 'Award Year', 'Award Amount', { color: 'Agency' })", 8],
  ])('%s is valid Vega-Lite with inlined data', async (code, rows) => {
    const [c] = await chartsOf(code);
    expect(c.kind).toBe('vega-lite');
    expect(validate(c.spec), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect((c.spec.data as { values: unknown[] }).values).toHaveLength(rows);
  });
  test('hist bins every row (no sampling)', async () => {
    const [c] = await chartsOf("plot.hist(award_data, 'Award Amount', { bins: 2 })");
    expect((c.spec.data as { values: unknown[] }).values).toEqual([
      { bin_start: 50000, bin_end: 775000, count: 6 },
      { bin_start: 775000, bin_end: 1500000, count: 1 },
    ]);
  });
});

describe('chart()', () => {
  test('a table as data is inlined as rows; title is reported', async () => {
    const [c] = await chartsOf(
      "chart({ title: 'Agencies', mark: 'bar', data: value_counts(award_data, 'Agency'), encoding: { x: { field: 'Agency', type: 'nominal' }, y: { field: 'count', type: 'quantitative' } } })",
    );
    expect(c.title).toBe('Agencies');
    expect(c.spec.data).toEqual({
      values: [
        { Agency: 'DOD', count: 3 },
        { Agency: 'NASA', count: 2 },
        { Agency: 'NSF', count: 2 },
      ],
    });
    expect(c.spec.$schema).toBe('https://vega.github.io/schema/vega-lite/v6.json');
    expect(validate(c.spec)).toBe(true);
  });
  test('big data is sampled evenly and says so', async () => {
    const [c] = await chartsOf(
      "chart({ mark: 'point', data: aq.table({ x: Array.from({ length: 12000 }, (_, i) => i) }), encoding: { x: { field: 'x', type: 'quantitative' } } })",
    );
    expect((c.spec.data as { values: unknown[] }).values).toHaveLength(5000);
    expect(c.spec.description).toBe('data sampled evenly: 5000 of 12000 rows');
  });
  test('a Plotly figure is accepted as kind plotly', async () => {
    const [c] = await chartsOf(
      "chart({ data: [{ type: 'bar', x: ['a'], y: [1] }], layout: { title: { text: 'P' } } })",
    );
    expect(c).toEqual({
      kind: 'plotly',
      title: 'P',
      spec: { data: [{ type: 'bar', x: ['a'], y: [1] }], layout: { title: { text: 'P' } } },
    });
  });
  test('display(spec) adds a chart; several charts keep their order', async () => {
    const charts = await chartsOf(
      "plot.bar(award_data, 'Phase'); display({ mark: 'bar', data: { values: [{ a: 1 }] }, encoding: { x: { field: 'a', type: 'quantitative' } } }); 1",
    );
    expect(charts.map((c) => (c.spec.data as { values: unknown[] }).values.length)).toEqual([2, 1]);
  });
  test('something else is a TypeError with an example', async () => {
    const r = await h.run('chart({ foo: 1 })');
    expect(r.error).toMatchObject({ name: 'TypeError' });
    expect(r.error!.hint).toMatch(/plot\.bar/);
  });
});
