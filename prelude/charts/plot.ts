/**
 * plot.bar / plot.line / plot.hist / plot.scatter: Vega-Lite specs from a table in one call.
 * Each adds the chart to the result (like chart()) and returns undefined. Options: title, color
 * (a column for series), width, height; bar also horizontal; hist bins (computed in the isolate
 * over all rows, so sampling never skews a histogram).
 */
import type { ColumnTable } from 'arquero';
import { assertTable, dtypeOf, isNull, resolveColumn, values } from '../frame/common.js';
import { value_counts } from '../frame/valueCounts.js';
import { chart, inlineRows } from './chart.js';

/** Options shared by the plot helpers. */
export interface PlotOptions {
  title?: string;
  /** A column that splits the marks into colored series. */
  color?: string;
  width?: number;
  height?: number;
  /** bar only: bars grow to the right. */
  horizontal?: boolean;
  /** hist only: number of bins. @default 30 */
  bins?: number;
}

/** Escapes `.`, `[`, `]` in a field name (Vega-Lite reads them as nested access). */
export const field = (name: string) => name.replace(/([.[\]\\])/g, '\\$1');

function vlType(t: ColumnTable, c: string, forBarX = false): string {
  const d = dtypeOf(t, c);
  if (d === 'date') return 'temporal';
  if (d === 'integer' && forBarX) return 'ordinal';
  return d === 'number' || d === 'integer' ? 'quantitative' : 'nominal';
}

function base(t: ColumnTable, cols: string[], o: PlotOptions, mark: unknown, encoding: Record<string, unknown>) {
  const { values: rows, note } = inlineRows(t, cols);
  if (o.color) encoding.color = { field: field(o.color), type: vlType(t, o.color, true) };
  return {
    ...(o.title ? { title: o.title } : {}),
    ...(note ? { description: note } : {}),
    ...(o.width ? { width: o.width } : {}),
    ...(o.height ? { height: o.height } : {}),
    data: { values: rows },
    mark,
    encoding,
  };
}

const withColor = (t: ColumnTable, cols: string[], o: PlotOptions) =>
  o.color ? [...cols, resolveColumn(t, o.color, 'plot color')] : cols;

/** Bar chart of y by x; without y, counts the rows of each x. @example plot.bar(value_counts(award_data, 'Agency'), 'Agency', 'count') */
function bar(t: unknown, x: string, y?: string, o: PlotOptions = {}): void {
  assertTable(t, 'plot.bar');
  if (y && typeof y === 'object') return bar(t, x, undefined, y as PlotOptions);
  const xc = resolveColumn(t, x, 'plot.bar');
  if (!y) return bar(value_counts(t, xc), xc, 'count', o);
  const yc = resolveColumn(t, y, 'plot.bar');
  const cat = {
    field: field(xc),
    type: vlType(t, xc, true),
    sort: vlType(t, xc, true) === 'nominal' ? (o.horizontal ? '-x' : '-y') : undefined,
  };
  const val = { field: field(yc), type: 'quantitative' };
  chart(base(t, withColor(t, [xc, yc], o), o, 'bar', o.horizontal ? { y: cat, x: val } : { x: cat, y: val }));
}

/** Line chart of y over x (dates become a time axis). @example plot.line(yearly, 'Award Year', 'Award Amount') */
function line(t: unknown, x: string, y: string, o: PlotOptions = {}): void {
  assertTable(t, 'plot.line');
  const xc = resolveColumn(t, x, 'plot.line');
  const yc = resolveColumn(t, y, 'plot.line');
  const xt = vlType(t, xc);
  chart(
    base(
      t.orderby(xc),
      withColor(t, [xc, yc], o),
      o,
      { type: 'line', point: true },
      {
        x: { field: field(xc), type: xt === 'nominal' ? 'ordinal' : xt },
        y: { field: field(yc), type: 'quantitative' },
      },
    ),
  );
}

/** Scatter plot of y against x. @example plot.scatter(award_data, 'Award Year', 'Award Amount') */
function scatter(t: unknown, x: string, y: string, o: PlotOptions = {}): void {
  assertTable(t, 'plot.scatter');
  const xc = resolveColumn(t, x, 'plot.scatter');
  const yc = resolveColumn(t, y, 'plot.scatter');
  chart(
    base(
      t,
      withColor(t, [xc, yc], o),
      o,
      { type: 'point', filled: true, opacity: 0.6 },
      { x: { field: field(xc), type: vlType(t, xc) }, y: { field: field(yc), type: vlType(t, yc) } },
    ),
  );
}

/** Histogram of a numeric column, binned over all rows. @example plot.hist(award_data, 'Award Amount', { bins: 20 }) */
function hist(t: unknown, col: string, o: PlotOptions = {}): void {
  assertTable(t, 'plot.hist');
  const c = resolveColumn(t, col, 'plot.hist');
  const xs = values(t, c)
    .filter((v) => !isNull(v))
    .map(Number);
  const bins = Math.max(1, Math.floor(o.bins ?? 30));
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of xs) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!xs.length) {
    lo = 0;
    hi = 1;
  }
  const w = hi > lo ? (hi - lo) / bins : 1;
  const counts = new Array(bins).fill(0);
  for (const v of xs) counts[Math.min(bins - 1, Math.floor((v - lo) / w))]++;
  const rows = counts.map((n, i) => ({ bin_start: lo + i * w, bin_end: lo + (i + 1) * w, count: n }));
  chart({
    ...(o.title ? { title: o.title } : {}),
    ...(o.width ? { width: o.width } : {}),
    ...(o.height ? { height: o.height } : {}),
    data: { values: rows },
    mark: 'bar',
    encoding: {
      x: { field: 'bin_start', type: 'quantitative', bin: { binned: true }, title: c },
      x2: { field: 'bin_end' },
      y: { field: 'count', type: 'quantitative' },
    },
  });
}

/** The `plot` global. */
export const plot = { bar, line, hist, scatter };
