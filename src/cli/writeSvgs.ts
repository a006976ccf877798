import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Chart } from '../../schema/result.js';
import { renderChart } from '../sandbox/charts.js';

/** `chart.svg` for one chart; `chart-1.svg`, `chart-2.svg`... for several. */
export function svgPaths(path: string, count: number): string[] {
  if (count === 1) return [path];
  const ext = extname(path) || '.svg';
  const stem = extname(path) ? path.slice(0, -ext.length) : path;
  return Array.from({ length: count }, (_, i) => `${stem}-${i + 1}${ext}`);
}

/**
 * Render every chart to SVG and write it; returns the files written.
 * @throws {ChartRenderError} when a chart cannot be rendered (Plotly traces without a Vega-Lite equivalent, bad specs);
 *   a Node error when a file cannot be written.
 */
export async function writeSvgs(charts: Chart[], path: string): Promise<string[]> {
  const paths = svgPaths(path, charts.length);
  for (const [i, chart] of charts.entries()) {
    const svg = await renderChart(chart);
    await writeFile(paths[i]!, svg, 'utf8');
  }
  return paths;
}
