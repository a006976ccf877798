/** save_chart: a chart of the run rendered to SVG by the host and returned as a file. */
import { chart } from '../charts/chart.js';
import { GuestError } from '../errors/guestError.js';
import { fileName } from './files.js';
import { runResults } from './results.js';

/**
 * Saves a chart as an SVG file of the run: `save_chart(spec, 'agencies.svg')` adds the chart and
 * saves it; `save_chart('agencies.svg')` saves the chart added last (by chart() or plot.*).
 * The host renders Vega-Lite charts to SVG after the run (Plotly figures cannot be rendered).
 * @throws {GuestError} when there is no chart to save, or for a bad name.
 * @example plot.bar(value_counts(award_data, 'Agency'), 'Agency', 'count'); save_chart('agencies.svg')
 */
export function save_chart(specOrName?: unknown, name?: unknown): { name: string; mediaType: string } {
  const onlyName = typeof specOrName === 'string' || specOrName === undefined;
  const file = fileName(onlyName ? specOrName : name, 'chart.svg', '.svg');
  if (!onlyName) chart(specOrName);
  const charts = runResults().charts;
  const last = charts[charts.length - 1];
  if (!last)
    throw new GuestError(
      'FileError',
      'save_chart(name) found no chart in this run',
      "Make the chart first (plot.bar(...) or chart({...})), or pass it: save_chart({ mark: 'bar', data: t, encoding: {...} }, 'chart.svg').",
    );
  if (last.kind !== 'vega-lite')
    throw new GuestError(
      'FileError',
      'save_chart can only save Vega-Lite charts as SVG; this one is a Plotly figure',
      'Use chart() with a Vega-Lite spec or plot.bar/line/hist/scatter.',
    );
  last.file = file;
  return { name: file, mediaType: 'image/svg+xml' };
}
