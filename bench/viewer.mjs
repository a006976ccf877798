// Measures the viewer side of issue #15 on this machine: capsule records with outputs (size, cost
// per run), report rendering, the live page (first load with jsdom/DOMPurify cold, then cached),
// and SVG sanitizing. Run after `npm run build`: node bench/viewer.mjs [runs=100]
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
const dist = new URL('../dist/src/', import.meta.url);
const { createSandbox, shutdown, withCapsules } = await import(new URL('index.js', dist).href);
const { renderReport } = await import(new URL('viewer/renderReport.js', dist).href);
const { createViewerHandler } = await import(new URL('viewer/createViewerHandler.js', dist).href);
const { sanitizeSvg } = await import(new URL('viewer/sanitizeSvg.js', dist).href);
const { renderChart } = await import(new URL('result/renderChart.js', dist).href);

const RUNS = Number(process.argv[2] ?? 100);
const dir = mkdtempSync(join(tmpdir(), 'sbirtools-bench-viewer-'));
const CELLS = [
  "print('agencies'); plot.bar(value_counts(award_data, 'Agency').head(8), 'Agency', 'count'); value_counts(award_data, 'Agency')",
  "award_data.groupby('Company').rollup({ total: op.sum('Award Amount') }).orderby(aq.desc('total')).slice(0, 200)",
  'const x = 1;\nx.nope()',
];
const ms = (t0) => performance.now() - t0;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timeRuns(outputs) {
  const box = await createSandbox();
  const log = join(dir, `runs-${outputs ? 'outputs' : 'plain'}.jsonl`);
  const run = withCapsules(box, { path: log, outputs, session: outputs ? 'bench' : 'plain' });
  await run(CELLS[0]); // warm: vega import, first chart
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run(CELLS[i % CELLS.length]);
    times.push(ms(t0));
  }
  await box.close();
  return { log, median: median(times), bytes: statSync(log).size / (RUNS + 1) };
}

const plain = await timeRuns(false);
const withOut = await timeRuns(true);
console.log(`runs per mode: ${RUNS} (cells: chart+table, 200-row table, error)`);
console.log(`median run+log: plain ${plain.median.toFixed(1)} ms, outputs ${withOut.median.toFixed(1)} ms`);
console.log(
  `mean record size: plain ${(plain.bytes / 1024).toFixed(1)} KiB, outputs ${(withOut.bytes / 1024).toFixed(1)} KiB`,
);

let t0 = performance.now();
const svg = await renderChart({
  mark: 'bar',
  data: { values: Array.from({ length: 2000 }, (_, i) => ({ a: `k${i}`, b: i })) },
  encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative' } },
});
const renderMs = ms(t0);
t0 = performance.now();
await sanitizeSvg(svg, 'a-');
const coldSan = ms(t0);
t0 = performance.now();
await sanitizeSvg(svg, 'b-');
console.log(
  `2,000-bar chart: render ${renderMs.toFixed(0)} ms, SVG ${(svg.length / 1024).toFixed(0)} KiB; sanitize cold (jsdom load) ${coldSan.toFixed(0)} ms, warm ${ms(t0).toFixed(0)} ms`,
);

t0 = performance.now();
const report = await renderReport(withOut.log, { session: 'bench' });
console.log(`report of ${RUNS + 1} runs: ${ms(t0).toFixed(0)} ms, ${(report.length / 1024).toFixed(0)} KiB`);

const handler = createViewerHandler({ logPath: withOut.log });
const server = createServer(handler).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const url = `http://127.0.0.1:${server.address().port}/`;
t0 = performance.now();
const first = await (await fetch(url)).text();
const firstMs = ms(t0);
t0 = performance.now();
await (await fetch(url)).text();
console.log(
  `live page of ${RUNS + 1} runs: first ${firstMs.toFixed(0)} ms, cached ${ms(t0).toFixed(0)} ms, ${(first.length / 1024).toFixed(0)} KiB`,
);
await handler.close();
server.close();
await shutdown();
