import { extname } from 'node:path';
import type { Chart } from '../../schema/result.js';
import { renderChart } from '../sandbox/charts.js';
import { checkOutput, writeOutput, type InputFiles } from './outputFile.js';

/** `chart.svg` for one chart; `chart-1.svg`, `chart-2.svg`... for several. */
export function svgPaths(path: string, count: number): string[] {
  if (count === 1) return [path];
  const ext = extname(path) || '.svg';
  const stem = extname(path) ? path.slice(0, -ext.length) : path;
  return Array.from({ length: count }, (_, i) => `${stem}-${i + 1}${ext}`);
}

/**
 * Render every chart to SVG and write it; returns the files written. Every path is checked before
 * the first is written: an existing file is replaced only with `force`, an input never.
 * @throws {ChartRenderError} when a chart cannot be rendered (Plotly traces without a Vega-Lite equivalent, bad specs);
 *   {OutputFileError} when a file exists, is an input, or cannot be written.
 */
export async function writeSvgs(
  charts: Chart[],
  path: string,
  options: { force?: boolean; inputs?: InputFiles } = {},
): Promise<string[]> {
  const paths = svgPaths(path, charts.length);
  const opts = { force: options.force === true, inputs: options.inputs ?? { byId: new Map() } };
  for (const p of paths) await checkOutput(p, opts);
  const svgs: string[] = [];
  for (const chart of charts) svgs.push(await renderChart(chart));
  for (const [i, svg] of svgs.entries()) await writeOutput(paths[i]!, opts, (handle) => handle.writeFile(svg, 'utf8'));
  return paths;
}
