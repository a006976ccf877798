/** Charts for the surfaces: a run's Vega-Lite (or Plotly) spec to SVG, in this process or in a capped child. */
export { renderChart, ChartRenderError } from '../result/renderChart.js';
export { renderChartIsolated } from '../result/renderChartIsolated.js';
