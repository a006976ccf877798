/** Per-run lists of display() tables and charts, reset before each run. */
import type { ColumnTable } from 'arquero';
import { resetFiles } from './files.js';

/** A chart queued for the result. */
export interface PendingChart {
  kind: 'vega-lite' | 'plotly';
  spec: Record<string, unknown>;
  title?: string;
  /** Set by save_chart(): the host renders the chart to this SVG file. */
  file?: string;
}

/** An item passed to display(): a table (serialized at the end of the run) or a chart. */
export type Displayed = { table: ColumnTable };

const run = { displays: [] as Displayed[], charts: [] as PendingChart[] };

/** Clears displays and charts for a new run. */
export function resetResults(): void {
  run.displays = [];
  run.charts = [];
  resetFiles();
}

/** Queues a table for `displays`. */
export function addDisplay(table: ColumnTable): void {
  run.displays.push({ table });
}

/** Queues a chart for `charts`. */
export function addChart(chart: PendingChart): void {
  run.charts.push(chart);
}

/** This run's displays and charts, in call order. */
export function runResults(): { displays: Displayed[]; charts: PendingChart[] } {
  return run;
}
