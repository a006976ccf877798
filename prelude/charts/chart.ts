/**
 * chart(spec): adds a chart to the run's result. A Vega-Lite spec (data inlined; an Arquero table
 * as `data` or `data.values` becomes row objects) or a Plotly-style `{ data: [traces], layout }`.
 * Inlined data is capped at MAX_CHART_ROWS rows, evenly sampled, with a note in `description`.
 */
import type { ColumnTable } from 'arquero';
import { GuestError } from '../errors/guestError.js';
import { isTable } from '../frame/common.js';
import { addChart } from '../output/results.js';

/** Most data rows inlined in one chart. */
export const MAX_CHART_ROWS = 5000;
/** The Vega-Lite schema URL put on specs without one. */
export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

const VL_KEYS = ['mark', 'layer', 'hconcat', 'vconcat', 'concat', 'facet', 'repeat', 'spec'];

const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** True for a Plotly-style figure: `data` is an array of trace objects. */
export function isPlotly(x: unknown): boolean {
  return isObj(x) && Array.isArray(x.data) && (x.data as unknown[]).every(isObj) && !VL_KEYS.some((k) => k in x);
}

/** True for something chart() accepts. */
export function isChartSpec(x: unknown): boolean {
  return (
    isObj(x) &&
    !isTable(x) &&
    (isPlotly(x) || VL_KEYS.some((k) => k in x) || String(x.$schema ?? '').includes('vega-lite'))
  );
}

/** Row objects of `t` (only `cols` if given), evenly sampled down to MAX_CHART_ROWS. */
export function inlineRows(t: ColumnTable, cols?: string[]): { values: Record<string, unknown>[]; note?: string } {
  const names = cols ?? t.columnNames();
  const idx = t.indices();
  const n = idx.length;
  const step = n > MAX_CHART_ROWS ? n / MAX_CHART_ROWS : 1;
  const columns = names.map((c) => t.column(c)!);
  const values: Record<string, unknown>[] = [];
  for (let k = 0; k < Math.min(n, MAX_CHART_ROWS); k++) {
    const r = idx[Math.floor(k * step)];
    const row: Record<string, unknown> = {};
    names.forEach((c, j) => (row[c] = columns[j].at(r)));
    values.push(row);
  }
  return n > MAX_CHART_ROWS ? { values, note: `data sampled evenly: ${MAX_CHART_ROWS} of ${n} rows` } : { values };
}

function inlineData(data: unknown): { data: unknown; note?: string } {
  if (isTable(data)) {
    const r = inlineRows(data);
    return { data: { values: r.values }, note: r.note };
  }
  if (Array.isArray(data)) return inlineData({ values: data });
  if (isObj(data) && isTable(data.values)) {
    const r = inlineRows(data.values);
    return { data: { ...data, values: r.values }, note: r.note };
  }
  if (isObj(data) && Array.isArray(data.values) && data.values.length > MAX_CHART_ROWS) {
    return {
      data: { ...data, values: data.values.slice(0, MAX_CHART_ROWS) },
      note: `data cut to ${MAX_CHART_ROWS} of ${data.values.length} rows`,
    };
  }
  return { data };
}

function titleOf(spec: Record<string, unknown>): string | undefined {
  const t = spec.title ?? (isObj(spec.layout) ? spec.layout.title : undefined);
  if (typeof t === 'string') return t;
  if (isObj(t) && typeof t.text === 'string') return t.text;
  return undefined;
}

/**
 * Adds a chart to the result (the run continues).
 * @example chart({ mark: 'bar', data: value_counts(award_data, 'Agency'), encoding: { x: { field: 'Agency', type: 'nominal' }, y: { field: 'count', type: 'quantitative' } } })
 */
export function chart(spec: unknown): void {
  if (!isChartSpec(spec)) {
    throw new GuestError(
      'TypeError',
      'chart() expects a Vega-Lite spec (with mark/layer/...) or a Plotly { data: [traces], layout } object',
      "Example: chart({ mark: 'bar', data: table, encoding: { x: { field: 'Agency', type: 'nominal' }, y: { field: 'count', type: 'quantitative' } } }), or use plot.bar(table, x, y).",
    );
  }
  const s = spec as Record<string, unknown>;
  if (isPlotly(s)) {
    addChart({ kind: 'plotly', spec: { ...s }, title: titleOf(s) });
    return;
  }
  const out: Record<string, unknown> = { $schema: VEGA_LITE_SCHEMA, ...s };
  if ('data' in s) {
    const d = inlineData(s.data);
    out.data = d.data;
    if (d.note) out.description = [s.description, d.note].filter(Boolean).join('; ');
  }
  addChart({ kind: 'vega-lite', spec: out, title: titleOf(s) });
}
