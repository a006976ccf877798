// Attack: capsule logs made to produce a page no browser can open: one run whose outputs are
// huge (megabytes of stdout, value, code and error text full of characters that escaping makes
// longer, tables of long cells, dozens of megabyte-sized SVGs) and a session of thousands of runs.
// The report stays within its size bound (4 MiB by default, --max-bytes), cuts every part with a
// visible note naming the command that prints the full text, and says how many runs it left out;
// the live page shows 50 runs at a time with "Show older runs", and GET /text serves a cut field
// whole, as plain text a browser will not run.
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CapsuleRecord } from '../../src/capsule/capsuleRecord.js';
import { readFullText } from '../../src/viewer/readFullText.js';
import { LIVE_PAGE_RUNS, REPORT_MAX_BYTES } from '../../src/viewer/renderLimits.js';
import { renderReport } from '../../src/viewer/renderReport.js';
import { activeContent, livePage, parsePage, record } from '../unit/viewer/fixtures.js';
import { cli } from '../e2e/helpers/cli.js';

const MB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'sbirtools-size-'));
const bigLog = join(dir, 'big.jsonl');
const longLog = join(dir, 'long.jsonl');
const STDOUT = `<b>"&'`.repeat(MB); // 6 MiB that escaping would make ~25 MiB

/** The largest run a log can hold, within reason for a test machine: every output part oversized. */
function hugeRecord(): CapsuleRecord {
  const cell = '<td>'.repeat(50);
  const rows = Array.from({ length: 1000 }, () => Array.from({ length: 10 }, () => cell));
  const table = {
    columns: Array.from({ length: 10 }, (_, i) => `c${i}${'x'.repeat(5000)}`),
    dtypes: Array(10).fill('string'),
    rows,
    totalRows: 1_000_000,
    truncated: true,
  };
  const svg = `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(40_000)}</svg>`; // 1.1 MB
  return record({
    code: `// ${'y'.repeat(2 * MB)}\n${'print(1)\n'.repeat(20_000)}`,
    session: { id: 'big', seq: 1 },
    outputs: {
      stdout: STDOUT,
      stderr: '<i>'.repeat(MB),
      valueText: '&'.repeat(2 * MB),
      error: { type: 'RUNTIME_ERROR', message: '<'.repeat(2 * MB), hint: '>'.repeat(MB) },
      displays: Array.from({ length: 15 }, () => table),
      table,
      charts: Array.from({ length: 30 }, () => ({ kind: 'vega-lite', svg })),
    } as CapsuleRecord['outputs'],
  });
}

beforeAll(() => {
  writeFileSync(bigLog, `${JSON.stringify(hugeRecord())}\n`);
  // a long session: 3,000 runs of 4 KiB of output each (12 MiB of stdout)
  const lines: string[] = [];
  for (let i = 1; i <= 3000; i++)
    lines.push(
      JSON.stringify(
        record({
          session: { id: 'long', seq: i },
          code: `print(${i})`,
          outputs: { stdout: `run ${i} `.padEnd(4096, '.') },
        }),
      ),
    );
  appendFileSync(longLog, `${lines.join('\n')}\n`);
}, 120_000);

describe('the report', () => {
  it('of the largest run stays within the bound and says what it cut and how to get it', async () => {
    expect(REPORT_MAX_BYTES).toBe(4 * MB); // the documented default
    const page = await renderReport(bigLog, { session: 'big' });
    expect(Buffer.byteLength(page)).toBeLessThanOrEqual(REPORT_MAX_BYTES);
    const doc = parsePage(page);
    expect(activeContent(doc)).toEqual([]);
    expect(doc.querySelector('.sb-stdout .sb-more')!.textContent).toMatch(
      /more characters not shown; full text: sbirtools report big\.jsonl --line 1 --field stdout -o -/,
    );
    expect(doc.querySelector('.sb-code .sb-more')!.textContent).toMatch(/not shown; full text: .*--field code/);
    expect(doc.body.textContent).toMatch(/more tables not shown/);
    expect(doc.body.textContent).toMatch(/more charts not shown/);
    expect(doc.querySelectorAll('.sb-chart svg')).toHaveLength(0); // 1.1 MB SVGs are over the per-chart bound
  });

  it('of a long session keeps the oldest runs within the bound and counts the rest', async () => {
    const page = await renderReport(longLog);
    expect(Buffer.byteLength(page)).toBeLessThanOrEqual(REPORT_MAX_BYTES);
    const doc = parsePage(page);
    const runs = [...doc.querySelectorAll('.sb-run')];
    expect(runs.length).toBeGreaterThan(100);
    expect(runs[0]!.getAttribute('data-line')).toBe('1');
    expect(doc.querySelector('.sb-left-out')!.textContent).toMatch(
      new RegExp(
        `^${(3000 - runs.length).toLocaleString('en-US')} of 3,000 runs \\(log line ${runs.length + 1} on\\) are not in this report`,
      ),
    );
    const small = await renderReport(longLog, { maxBytes: MB });
    expect(Buffer.byteLength(small)).toBeLessThanOrEqual(MB);
  });

  it('the full text of a cut field is one command away, whole', async () => {
    expect(await readFullText(bigLog, 1, 'stdout')).toBe(STDOUT);
    const r = await cli(['report', bigLog, '--line', '1', '--field', 'stdout', '-o', '-']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(STDOUT);
    const sized = await cli(['report', longLog, '--max-bytes', String(MB), '-o', join(dir, 'small.html')]);
    expect(sized.code).toBe(0);
    expect(sized.stderr).toMatch(/wrote .*small\.html \(([\d,]+) bytes\)/);
  });
});

describe('the live page', () => {
  it('of a long session shows one page of runs and a button for older ones', async () => {
    const { body } = await livePage(longLog);
    const doc = parsePage(body);
    expect(activeContent(doc)).toEqual([]);
    const runs = [...doc.querySelectorAll('.sb-run')];
    expect(runs).toHaveLength(LIVE_PAGE_RUNS);
    expect(runs[0]!.getAttribute('data-line')).toBe('3000');
    const older = doc.querySelector('.sb-older')!;
    expect(older.getAttribute('data-before')).toBe(String(3000 - LIVE_PAGE_RUNS + 1));
    expect(older.textContent).toMatch(/Show older runs \(2,950 more\)/);
    const next = JSON.parse(
      (await livePage(longLog, `/fragment?before=${older.getAttribute('data-before')}`)).body,
    ) as { older: string };
    const batch = parsePage(`<body>${next.older}</body>`);
    expect([...batch.querySelectorAll('.sb-run')].map((r) => r.getAttribute('data-line'))[0]).toBe(
      String(3000 - LIVE_PAGE_RUNS),
    );
    expect(batch.querySelector('.sb-older')!.getAttribute('data-before')).toBe(String(3000 - 2 * LIVE_PAGE_RUNS + 1));
  });

  it('of the largest run is bounded and links the cut fields to /text, served whole as inert text', async () => {
    const [page, text, badField, badLine] = await getAll(bigLog, [
      '/',
      '/text?line=1&field=stdout',
      '/text?line=1&field=nope',
      '/text?line=9&field=stdout',
    ]);
    expect(Buffer.byteLength(page!.body)).toBeLessThan(5 * MB);
    const doc = parsePage(page!.body);
    expect(activeContent(doc)).toEqual([]);
    expect(doc.querySelector('.sb-stdout .sb-more a')!.getAttribute('href')).toBe('/text?line=1&field=stdout');
    expect(doc.body.textContent).toMatch(/more outputs? of this run not shown/);
    expect(text!.body).toBe(STDOUT);
    expect(text!.type).toBe('text/plain; charset=utf-8');
    expect(text!.csp).toMatch(/sandbox/);
    expect(badField!.status).toBe(400);
    expect(badLine!.status).toBe(404);
  });
});

/** GET paths of one live viewer of `log` (it parses the log once), with status and headers. */
async function getAll(
  log: string,
  paths: string[],
): Promise<Array<{ status: number; body: string; type: string; csp: string }>> {
  const { createServer } = await import('node:http');
  const { createViewerHandler } = await import('../../src/viewer/createViewerHandler.js');
  const handler = createViewerHandler({ logPath: log });
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    const out = [];
    for (const path of paths) {
      const res = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}${path}`);
      out.push({
        status: res.status,
        body: await res.text(),
        type: res.headers.get('content-type') ?? '',
        csp: res.headers.get('content-security-policy') ?? '',
      });
    }
    return out;
  } finally {
    await handler.close();
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
}
