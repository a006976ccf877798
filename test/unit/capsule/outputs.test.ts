import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCapsules } from '../../../src/capsule/readCapsules.js';
import { withCapsules, type RunFn } from '../../../src/capsule/withCapsules.js';
import { CUT_MARKER } from '../../../src/capsule/capsuleOutputs.js';
import { fitOutputs } from '../../../src/capsule/fitOutputs.js';
import { SbirtoolsValidationError } from '../../../src/core/errors.js';
import { fakeResult, TABLE } from '../adapters/fixtures.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'sbirtools-outputs-'));
const bar = {
  kind: 'vega-lite' as const,
  spec: {
    data: { values: [{ a: 'x', b: 1 }] },
    mark: 'bar',
    encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative' } },
  },
  title: 'T',
};

describe('capsule outputs', () => {
  it('are off by default: old-style records without outputs', async () => {
    const path = join(tmp(), 'runs.jsonl');
    await withCapsules(async () => fakeResult({ stdout: 'hi\n' }), { path })('1');
    expect((await readCapsules(path))[0]!.record.outputs).toBeUndefined();
  });

  it('keep stdout, value, table, charts with SVG (Vega-Lite and Plotly) and the error with line and hint', async () => {
    const path = join(tmp(), 'runs.jsonl');
    const error = {
      type: 'RUNTIME_ERROR' as const,
      name: 'TypeError',
      message: 'TypeError: x is undefined (line 2)',
      line: 2,
      column: 3,
      hint: 'Define x first.',
    };
    const fn: RunFn = async () =>
      fakeResult({
        ok: false,
        stdout: 'printed\n',
        value: { n: 1 },
        valueText: '{ n: 1 }',
        table: TABLE,
        charts: [
          bar,
          { kind: 'plotly', spec: { data: [{ type: 'bar', x: ['p'], y: [2] }] } },
          { kind: 'plotly', spec: { data: [{ type: 'sankey' }] } },
        ],
        error,
      });
    await withCapsules(fn, { path, outputs: true, session: 's1' })('code');
    const out = (await readCapsules(path))[0]!.record.outputs!;
    expect(out).toMatchObject({
      stdout: 'printed\n',
      value: { n: 1 },
      valueText: '{ n: 1 }',
      error,
      truncated: { stdout: false, value: false },
    });
    expect(out.table).toEqual({
      columns: TABLE.columns,
      dtypes: TABLE.dtypes,
      rows: TABLE.rows,
      totalRows: 1,
      truncated: false,
    });
    expect(out.charts![0]!.svg).toMatch(/^<svg/);
    expect(out.charts![1]!.svg).toMatch(/^<svg/);
    expect(out.charts![2]!.svgError).toMatch(/sankey/);
    expect(out.cut).toBeUndefined();
  });

  it('cut a record over its byte cap, with the marker and the list of cut fields', async () => {
    const path = join(tmp(), 'runs.jsonl');
    const big = 'é'.repeat(200_000) + 'END';
    const rows = Array.from({ length: 5000 }, (_, i) => [`agency ${i}`, i]);
    const fn: RunFn = async () =>
      fakeResult({ stdout: big, value: Array(10_000).fill(1), table: { ...TABLE, rows, totalRows: 1_000_000 } });
    await withCapsules(fn, { path, outputs: true, outputsMaxBytes: 64 * 1024 })('x');
    const { record } = (await readCapsules(path))[0]!;
    const out = record.outputs!;
    expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(64 * 1024 + 200); // the cut note itself is small
    expect(out.cut).toMatchObject({ maxBytes: 65536, fields: expect.arrayContaining(['value', 'stdout']) });
    expect(out.cut!.originalBytes).toBeGreaterThan(400_000);
    expect(out.stdout.endsWith(CUT_MARKER)).toBe(true);
    expect(out.stdout.startsWith('éé')).toBe(true);
    expect(out.table!.totalRows).toBe(1_000_000);
    expect(out.table!.truncated).toBe(true);
    expect(out.value).toBeUndefined();
  });

  it('fitOutputs never splits a character and drops SVGs last', () => {
    const o = fitOutputs(
      {
        stdout: '😀'.repeat(5000),
        truncated: { stdout: false, value: false },
        charts: [{ kind: 'vega-lite', spec: { big: 'x'.repeat(5000) }, svg: '<svg>' + 'y'.repeat(3000) + '</svg>' }],
      },
      4096,
    );
    expect(o.stdout).not.toContain('\uFFFD');
    expect(o.charts![0]!.spec).toBeUndefined();
    expect(o.charts![0]!.svg).toBeDefined();
    expect(o.cut!.fields).toEqual(expect.arrayContaining(['charts[0].spec', 'stdout']));
  });

  it('reject a byte cap that is not a whole number of at least 1024', () => {
    expect(() =>
      withCapsules(async () => fakeResult(), { path: 'x.jsonl', outputs: true, outputsMaxBytes: 10 }),
    ).toThrow(SbirtoolsValidationError);
    expect(() =>
      withCapsules(async () => fakeResult(), { path: 'x.jsonl', outputs: true, outputsMaxBytes: 10 }),
    ).toThrow(/outputsMaxBytes.*got `10`/);
  });
});
