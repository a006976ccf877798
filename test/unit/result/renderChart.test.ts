import { describe, expect, test } from 'vitest';
import { ChartRenderError, renderChart } from '../../../src/result/renderChart.js';

const bar = {
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  data: {
    values: [
      { Agency: 'DOD', count: 3 },
      { Agency: 'NASA', count: 2 },
    ],
  },
  mark: 'bar',
  encoding: { x: { field: 'Agency', type: 'nominal' }, y: { field: 'count', type: 'quantitative' } },
};

describe('renderChart', () => {
  test('renders a Vega-Lite chart to SVG', async () => {
    const svg = await renderChart({ kind: 'vega-lite', spec: bar });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('DOD');
    expect(svg).toContain('</svg>');
  });
  test('accepts a bare spec', async () => {
    expect(await renderChart(bar)).toMatch(/^<svg/);
  });
  test('renders Plotly figures through Vega-Lite: bars, lines, pies, several traces', async () => {
    const barSvg = await renderChart({
      kind: 'plotly',
      spec: { data: [{ type: 'bar', x: ['DOD', 'NASA'], y: [3, 2] }], layout: { title: { text: 'Awards' } } },
    });
    expect(barSvg).toMatch(/^<svg/);
    expect(barSvg).toContain('NASA');
    expect(barSvg).toContain('Awards');
    const lines = await renderChart({
      data: [
        { type: 'scatter', mode: 'lines', name: 'a', x: [1, 2], y: [3, 4] },
        { type: 'bar', name: 'b', x: [1, 2], y: [1, 1] },
      ],
      layout: {},
    });
    expect(lines).toMatch(/<path[^>]*d="M/);
    expect(
      await renderChart({ kind: 'plotly', spec: { data: [{ type: 'pie', labels: ['x', 'y'], values: [1, 2] }] } }),
    ).toContain('<svg');
  });
  test('rejects Plotly figures it cannot draw, non-specs and specs that do not compile', async () => {
    await expect(renderChart({ kind: 'plotly', spec: { data: [] } })).rejects.toThrow(/no traces/);
    await expect(renderChart({ data: [{ type: 'sankey' }], layout: {} })).rejects.toThrow(
      /'sankey' cannot be drawn here/,
    );
    await expect(renderChart({ data: [{ type: 'sankey' }], layout: {} })).rejects.toThrow(ChartRenderError);
    await expect(renderChart({ foo: 1 })).rejects.toThrow(/expects a Vega-Lite spec/);
    await expect(renderChart(null as never)).rejects.toThrow(/got null/);
    await expect(renderChart({ mark: 'nope' })).rejects.toThrow(/does not compile/);
  });
  test('never fetches external data', async () => {
    await expect(renderChart({ ...bar, data: { url: 'https://example.com/data.json' } })).rejects.toThrow(
      /external resources/,
    );
  });
});

describe('renderChart with an href channel', () => {
  test('draws the marks without links and leaves no unhandled rejection behind', async () => {
    const rejections: unknown[] = [];
    const onRejection = (r: unknown) => rejections.push(r);
    process.on('unhandledRejection', onRejection);
    try {
      const svg = await renderChart({
        data: { values: [{ a: 'x', u: 'javascript:alert(1)' }] },
        mark: 'bar',
        encoding: { x: { field: 'a', type: 'nominal' }, href: { field: 'u' } },
      });
      expect(svg).toMatch(/^<svg/);
      expect(svg).not.toMatch(/href=/);
      // an unhandled rejection is reported once the microtasks drain, before the next macrotask
      await new Promise((r) => setImmediate(r));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});
