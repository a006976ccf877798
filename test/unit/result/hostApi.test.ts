// The host-side prelude APIs, through the public index: describeData(), renderChart(), toolDescription().
import { describe, it, expect, afterAll } from 'vitest';
import { describeData, renderChart, run, shutdown, toolDescription, ChartRenderError } from '../../../src/index.js';

afterAll(() => shutdown());

describe('host APIs', () => {
  it('describeData() returns the same card the sandbox computes, labelled synthetic', async () => {
    const card = await describeData();
    const inside = await run('describeData()', { preset: 'permissive' });
    expect(inside.value).toEqual(card);
    expect(card.summary).toMatch(/SYNTHETIC/);
    expect(card.columns.map((c) => c.name)).toContain('Award Amount');
  });

  it('renderChart() turns a chart from a run into SVG and refuses empty Plotly figures', async () => {
    const r = await run("plot.bar(value_counts(award_data, 'Agency').head(5), 'Agency', 'count')");
    expect(r.charts?.[0]?.kind).toBe('vega-lite');
    const svg = await renderChart(r.charts![0]!);
    expect(svg.startsWith('<svg')).toBe(true);
    await expect(renderChart({ kind: 'plotly', spec: { data: [], layout: {} } })).rejects.toBeInstanceOf(
      ChartRenderError,
    );
  });

  it('toolDescription() fits the 1,500-token budget', async () => {
    const text = toolDescription(await describeData());
    expect(text.length / 4).toBeLessThan(1500);
    expect(text).toMatch(/award_data/);
  });
});
