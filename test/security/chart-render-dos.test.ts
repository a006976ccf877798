// Attack: a guest chart spec that makes the host's renderer stall or eat memory (a Vega-Lite
// `sequence` of 30 million rows), drawn automatically when capsule outputs are on.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCapsules } from '../../src/capsule/readCapsules.js';
import { withCapsules } from '../../src/capsule/withCapsules.js';
import { ChartRenderError } from '../../src/result/renderChart.js';
import { renderChartIsolated } from '../../src/result/renderChartIsolated.js';
import { fakeResult } from '../unit/adapters/fixtures.js';
import { expectNoHang } from '../helpers/hangGuard.js';

const BOMB = {
  data: { sequence: { start: 0, stop: 3e7, as: 'x' } },
  mark: 'point',
  encoding: { x: { field: 'x', type: 'quantitative' } },
};
const SMALL = {
  data: { values: [{ a: 'x', b: 1 }] },
  mark: 'bar',
  encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative' } },
};

describe('chart render DoS', () => {
  it('is cut by the worker deadline; the host stays responsive and the next chart draws', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 50);
    const started = Date.now();
    await expect(renderChartIsolated(BOMB, { timeoutMs: 3000 })).rejects.toThrow(ChartRenderError);
    clearInterval(timer);
    expectNoHang(Date.now() - started, 3000, 'the cut at the worker deadline');
    expect(ticks).toBeGreaterThan(10); // the host's event loop kept running meanwhile
    expect(await renderChartIsolated(SMALL)).toMatch(/^<svg/);
  });

  it('a memory-hungry chart fails alone (heap cap of the chart process)', async () => {
    await expect(renderChartIsolated(BOMB, { timeoutMs: 60_000, memoryMb: 64 })).rejects.toThrow(
      /more than 64 MB|longer than/,
    );
    expect(await renderChartIsolated(SMALL, { memoryMb: 512 })).toMatch(/^<svg/);
  });

  it('with outputs on, the run is logged with svgError instead of stalling the host', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sbirtools-chart-dos-')), 'runs.jsonl');
    await withCapsules(
      async () =>
        fakeResult({
          charts: [
            { kind: 'vega-lite', spec: BOMB },
            { kind: 'vega-lite', spec: SMALL },
          ],
        }),
      { path, outputs: true },
    )('chart(bomb)');
    const charts = (await readCapsules(path))[0]!.record.outputs!.charts!;
    expect(charts[0]!.svgError).toMatch(/longer than|more than/);
    expect(charts[1]!.svg).toMatch(/^<svg/);
  }, 120_000);
});

describe('chart render DoS through save_chart()', () => {
  it('a run that saves a chart bomb ends with a note on stderr; the host keeps running', async () => {
    const { run } = await import('../../src/sandbox/sandbox.js');
    const r = await run(`save_chart(${JSON.stringify(BOMB)}, 'bomb.svg'); 1`, { timeoutMs: 30_000 });
    expect(r.ok).toBe(true);
    expect(r.files?.some((f) => f.name === 'bomb.svg')).toBeFalsy();
    expect(r.stderr).toMatch(/bomb\.svg could not be rendered as SVG: the chart (took longer|needs more)/);
  }, 120_000);
});
