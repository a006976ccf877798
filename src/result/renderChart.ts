import type * as Vega from 'vega';
import type { Chart } from '../../schema/result.js';
import { plotlyToVegaLite } from './plotlyToVegaLite.js';
import { SbirtoolsError } from '../core/errors.js';

// vega and vega-lite take ~0.5 s to import: load them on the first render, not with the library.
// Both come bundled in one vendored file (src/vendor/vega.ts), so no install step can miss them.
let libs: Promise<{ vega: typeof Vega; compile: typeof import('../vendor/vega.js').compile }> | undefined;
const loadLibs = () => (libs ??= import('../vendor/vega.js').then(({ vega, compile }) => ({ vega, compile })));

/** Thrown for input renderChart cannot render (Plotly figures, non-Vega-Lite objects, bad specs). */
export class ChartRenderError extends SbirtoolsError {
  override readonly name = 'ChartRenderError';
  constructor(message: string, options?: ErrorOptions) {
    super('CHART_RENDER_FAILED', message, options);
  }
}

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

// The spec comes from guest code: never let Vega fetch URLs or read files (data.url, image href).
function sealedLoader(vega: typeof Vega): ReturnType<typeof Vega.loader> {
  const loader = vega.loader();
  const refuse = async (uri: unknown): Promise<never> => {
    throw new ChartRenderError(
      `renderChart does not load external resources (${String(uri)}); inline the data as data.values`,
    );
  };
  loader.load = refuse;
  // A mark's `href` channel asks to sanitize its link: answer "no link". Refusing instead makes
  // vega-scenegraph dereference null in a promise nobody catches, an unhandled rejection that
  // would end the host process.
  loader.sanitize = (async (uri: unknown, options?: { context?: string }) => {
    if (options?.context === 'href') return { href: null };
    return refuse(uri);
  }) as never;
  loader.http = refuse;
  loader.file = refuse;
  return loader;
}

/**
 * Render a chart to an SVG string on the host (no browser, no canvas, no network). Accepts a
 * result's chart (`{ kind: 'vega-lite' | 'plotly', spec }`), a bare Vega-Lite spec or a Plotly
 * figure (converted to Vega-Lite by plotlyToVegaLite).
 * @throws ChartRenderError for Plotly traces without a Vega-Lite equivalent, for objects that are not
 *   Vega-Lite specs, for specs that do not compile, and for specs that reference external data.
 * @example const svg = await renderChart(result.charts[0]);
 */
export async function renderChart(input: Chart | Record<string, unknown>): Promise<string> {
  const chart: unknown = input;
  if (!isObject(chart))
    throw new ChartRenderError(`renderChart expects a chart object, got ${chart === null ? 'null' : typeof chart}`);
  let spec: Record<string, unknown> = chart.kind === 'vega-lite' && isObject(chart.spec) ? chart.spec : chart;
  if (chart.kind === 'plotly' || (Array.isArray(chart.data) && 'layout' in chart)) {
    // Plotly figures are converted to Vega-Lite, so they render on the host like every chart.
    try {
      spec = plotlyToVegaLite(chart.kind === 'plotly' && isObject(chart.spec) ? chart.spec : chart);
    } catch (err) {
      throw new ChartRenderError((err as Error).message);
    }
  }
  if (!['mark', 'layer', 'hconcat', 'vconcat', 'concat', 'facet', 'repeat'].some((k) => k in spec)) {
    throw new ChartRenderError(
      'renderChart expects a Vega-Lite spec (an object with mark, layer, concat, facet or repeat)',
    );
  }
  const { vega, compile } = await loadLibs();
  let compiled: Vega.Spec;
  try {
    compiled = compile(spec as never).spec;
  } catch (err) {
    throw new ChartRenderError(`the Vega-Lite spec does not compile: ${(err as Error).message}`);
  }
  // Vega logs dataflow errors (such as a refused load) instead of throwing: collect and report them
  const errors: unknown[] = [];
  const logger = {
    level(this: unknown, _?: number) {
      return arguments.length ? this : vega.Error;
    },
    error: (...args: unknown[]) => {
      errors.push(args.find((a) => a instanceof Error) ?? args.join(' '));
      return logger;
    },
    // a refused load is only a warning ("Loading failed"), but it means the chart is wrong
    warn: (...args: unknown[]) => {
      if (args[0] === 'Loading failed') errors.push(args.find((a) => a instanceof Error) ?? args.join(' '));
      return logger;
    },
    info: () => logger,
    debug: () => logger,
  };
  const view = new vega.View(vega.parse(compiled), {
    renderer: 'none',
    loader: sealedLoader(vega),
    logger: logger as never,
  });
  try {
    const svg = await view.toSVG();
    if (errors.length) {
      const first = errors[0];
      throw first instanceof ChartRenderError
        ? first
        : new ChartRenderError(`the chart failed to render: ${first instanceof Error ? first.message : String(first)}`);
    }
    return svg;
  } finally {
    view.finalize();
  }
}
