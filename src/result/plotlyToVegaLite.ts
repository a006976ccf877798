import { SbirtoolsError } from '../core/errors.js';
/** Thrown for a Plotly figure that has no Vega-Lite equivalent here (the message names the trace). */
export class PlotlyConversionError extends SbirtoolsError {
  override readonly name = 'PlotlyConversionError';
  constructor(message: string, options?: ErrorOptions) {
    super('PLOTLY_CONVERSION_FAILED', message, options);
  }
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => x !== null && typeof x === 'object' && !Array.isArray(x);
const arr = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);
/** Plotly titles are a string or `{ text }`. */
const text = (t: unknown): string | undefined =>
  typeof t === 'string' ? t : isObj(t) && typeof t.text === 'string' ? t.text : undefined;
const MARKS: Record<string, string> = {
  bar: 'bar',
  scatter: 'point',
  scattergl: 'point',
  line: 'line',
  histogram: 'bar',
  pie: 'arc',
  box: 'boxplot',
};
const SUPPORTED = Object.keys(MARKS).join(', ');

function markOf(trace: Obj): string {
  const type = typeof trace.type === 'string' ? trace.type : 'scatter';
  const mark = MARKS[type];
  if (!mark)
    throw new PlotlyConversionError(
      `Plotly trace type '${type}' cannot be drawn here; use one of ${SUPPORTED}, or a Vega-Lite spec.`,
    );
  if ((type === 'scatter' || type === 'scattergl') && typeof trace.mode === 'string' && trace.mode.includes('lines'))
    return 'line';
  return mark;
}

/** Rows `{ x, y, trace }` of one trace (pie: `{ label, value, trace }`). */
function rowsOf(trace: Obj, name: string): Obj[] {
  if (trace.type === 'pie') {
    const labels = arr(trace.labels);
    return arr(trace.values).map((value, i) => ({ label: labels[i] ?? String(i), value, trace: name }));
  }
  const xs = arr(trace.x);
  const ys = arr(trace.y);
  const n = Math.max(xs.length, ys.length);
  const rows: Obj[] = [];
  for (let i = 0; i < n; i++) rows.push({ x: xs.length ? xs[i] : i, y: ys.length ? ys[i] : null, trace: name });
  return rows;
}

function typeOf(values: unknown[]): 'quantitative' | 'temporal' | 'nominal' {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length && present.every((v) => typeof v === 'number')) return 'quantitative';
  if (present.length && present.every((v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v))) return 'temporal';
  return 'nominal';
}

function layerOf(trace: Obj, i: number, layout: Obj, multi: boolean): Obj {
  const name = typeof trace.name === 'string' ? trace.name : `trace ${i}`;
  const mark = markOf(trace);
  const values = rowsOf(trace, name);
  const color = multi ? { color: { field: 'trace', type: 'nominal', title: null } } : {};
  if (mark === 'arc') {
    return {
      data: { values },
      mark: 'arc',
      encoding: {
        theta: { field: 'value', type: 'quantitative' },
        color: { field: 'label', type: 'nominal', title: null },
      },
    };
  }
  const xTitle = text(isObj(layout.xaxis) ? layout.xaxis.title : undefined) ?? null;
  const yTitle = text(isObj(layout.yaxis) ? layout.yaxis.title : undefined) ?? null;
  if (trace.type === 'histogram') {
    return {
      data: { values },
      mark: 'bar',
      encoding: {
        x: { field: 'x', type: 'quantitative', bin: true, title: xTitle },
        y: { aggregate: 'count', type: 'quantitative', title: yTitle ?? 'count' },
        ...color,
      },
    };
  }
  const horizontal = trace.orientation === 'h';
  const x = {
    field: 'x',
    type: typeOf(values.map((r) => r.x)),
    title: xTitle,
    ...(mark === 'bar' && !horizontal ? { sort: null } : {}),
  };
  const y = {
    field: 'y',
    type: typeOf(values.map((r) => r.y)),
    title: yTitle,
    ...(mark === 'bar' && horizontal ? { sort: null } : {}),
  };
  return {
    data: { values },
    mark: mark === 'line' ? { type: 'line', point: String(trace.mode ?? '').includes('markers') } : mark,
    encoding: { x, y, ...color },
  };
}

/**
 * Convert a Plotly-style figure `{ data: [traces], layout }` to a Vega-Lite spec, so the host can
 * render it to SVG like any chart. Traces bar (also `orientation: 'h'`), scatter/scattergl (points,
 * or lines with `mode: 'lines'`), histogram, pie and box; several traces become layers coloured by
 * trace name; layout.title and the axis titles carry over.
 * @throws PlotlyConversionError for other trace types or a figure without traces.
 * @example renderChart(plotlyToVegaLite({ data: [{ type: 'bar', x: ['a'], y: [1] }] }))
 */
export function plotlyToVegaLite(figure: Obj): Obj {
  const traces = arr(figure.data).filter(isObj);
  if (traces.length === 0)
    throw new PlotlyConversionError(
      'The Plotly figure has no traces: give `data` an array of trace objects, e.g. [{ type: "bar", x: [...], y: [...] }].',
    );
  const layout = isObj(figure.layout) ? figure.layout : {};
  const title = text(layout.title);
  const layers = traces.map((t, i) => layerOf(t, i, layout, traces.length > 1));
  const size = {
    width: typeof layout.width === 'number' ? Math.min(layout.width, 2000) : 480,
    height: typeof layout.height === 'number' ? Math.min(layout.height, 2000) : 300,
  };
  const head = { ...(title ? { title } : {}), ...size };
  return layers.length === 1 ? { ...head, ...layers[0] } : { ...head, layer: layers };
}
