// Entry of the chart process (renderChartIsolated): renders one chart at a time, answers by id.
import { renderChart } from './renderChart.js';

process.on('message', (msg: { id: number; chart: Record<string, unknown> }) => {
  renderChart(msg.chart).then(
    (svg) => process.send!({ id: msg.id, svg }),
    (err: unknown) => process.send!({ id: msg.id, error: (err as Error)?.message ?? String(err) }),
  );
});
// the parent going away ends this process
process.on('disconnect', () => process.exit(0));
