// The viewer and the report at their size bounds, in a real browser (headless Debian chromium via
// puppeteer-core): a log with the largest run a crafted log can hold (megabytes of escaped text,
// sixteen 1,000-row tables of long cells, thirty megabyte SVGs) and a session of 3,000 runs. The
// report (written by the CLI) and the live page load, and a click is handled, within the hang
// guards below (60 s to load, 30 s per click; both take well under a few seconds here, see
// docs/viewer.md "Measured"). Times are printed, never asserted.
import { appendFileSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapsuleRecord } from '../../src/capsule/capsuleRecord.js';
import { REPORT_MAX_BYTES } from '../../src/viewer/renderLimits.js';
import { record } from '../unit/viewer/fixtures.js';
import { browserUnavailable, launchBrowser } from './helpers/browser.js';
import { cli } from './helpers/cli.js';
import { startViewer, type ViewerProcess } from './helpers/viewer.js';

const unavailable = browserUnavailable();
if (unavailable) console.warn(`browser tests skipped: ${unavailable}`);
const MB = 1024 * 1024;
const LOAD_GUARD_MS = 60_000;
const CLICK_GUARD_MS = 30_000;
const dir = mkdtempSync(join(tmpdir(), 'sbirtools-browser-large-'));
const log = join(dir, 'runs.jsonl');

function hugeRecord(): CapsuleRecord {
  const rows = Array.from({ length: 1000 }, (_, r) => [r, ...Array.from({ length: 9 }, () => '<td>&amp;'.repeat(20))]);
  const table = {
    columns: ['n', ...Array.from({ length: 9 }, (_, i) => `c${i}`)],
    dtypes: ['integer', ...Array(9).fill('string')],
    rows,
    totalRows: 1000,
    truncated: false,
  };
  const svg = `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(40_000)}</svg>`;
  return record({
    time: '2026-01-02T00:00:00.000Z',
    code: `// ${'y'.repeat(MB)}\n${'print(1)\n'.repeat(20_000)}`,
    session: { id: 'big', seq: 1 },
    outputs: {
      stdout: `<b>"&'`.repeat(MB),
      valueText: '&'.repeat(MB),
      error: { type: 'RUNTIME_ERROR', message: '<'.repeat(MB), hint: '>'.repeat(MB) },
      displays: Array.from({ length: 15 }, () => table),
      table,
      charts: Array.from({ length: 30 }, () => ({ kind: 'vega-lite', svg })),
    } as CapsuleRecord['outputs'],
  });
}

let browser: Browser;
let viewer: ViewerProcess;

/** Open `url`, time it, and return the page (the load is bounded by LOAD_GUARD_MS). */
async function open(url: string): Promise<{ page: Page; ms: number }> {
  const page = await browser.newPage();
  const started = performance.now();
  await page.goto(url, { waitUntil: 'load', timeout: LOAD_GUARD_MS });
  return { page, ms: Math.round(performance.now() - started) };
}

describe.skipIf(!!unavailable)('the largest pages in a real browser', () => {
  beforeAll(async () => {
    appendFileSync(log, `${JSON.stringify(hugeRecord())}\n`);
    const lines: string[] = [];
    for (let i = 1; i <= 3000; i++) {
      const outputs = {
        stdout: `run ${i} `.padEnd(2048, '.'),
        table: {
          columns: ['i', 'name'],
          dtypes: ['integer', 'string'],
          rows: Array.from({ length: 45 }, (_, r) => [45 - r, `row ${r}`]),
          totalRows: 45,
          truncated: false,
        },
      };
      lines.push(
        JSON.stringify(
          record({
            time: `2026-01-03T00:00:00.000Z`,
            session: { id: 'long', seq: i },
            code: `print(${i})`,
            outputs: outputs as Partial<CapsuleRecord['outputs']>,
          }),
        ),
      );
    }
    appendFileSync(log, `${lines.join('\n')}\n`);
    viewer = await startViewer(log);
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await viewer?.stop();
  });

  for (const session of ['big', 'long']) {
    it(`the report of session ${session} loads from a file and a click pages its table`, async () => {
      const out = join(dir, `${session}.html`);
      const r = await cli(['report', log, '--session', session, '-o', out]);
      expect(r.code).toBe(0);
      const bytes = statSync(out).size;
      expect(bytes).toBeLessThanOrEqual(REPORT_MAX_BYTES);
      const { page, ms } = await open(pathToFileURL(out).href);
      const table = (await page.$$('.sb-table'))[0]!;
      expect(await table.$eval('.sb-page', (el) => el.textContent)).toMatch(/^rows 1–20 of/);
      const clicked = performance.now();
      await (await table.$('.sb-next'))!.click();
      await page.waitForFunction(
        (el) => /^rows 21–/.test(el.querySelector('.sb-page')?.textContent ?? ''),
        { timeout: CLICK_GUARD_MS },
        table,
      );
      console.log(
        `report ${session}: ${bytes.toLocaleString('en-US')} bytes, ${await page.$$eval('.sb-run', (a) => a.length)} runs, loaded in ${ms} ms, click handled in ${Math.round(performance.now() - clicked)} ms`,
      );
      await page.close();
    });
  }

  it('the live page of the largest run loads and sorts a table on a click', async () => {
    const { page, ms } = await open(`${viewer.url}?session=big`);
    const table = (await page.$$('.sb-table'))[0]!;
    const clicked = performance.now();
    await (await table.$('th:nth-child(1) .sb-sort'))!.click();
    await page.waitForFunction(
      (el) => el.querySelector('th')?.getAttribute('aria-sort') === 'ascending',
      { timeout: CLICK_GUARD_MS },
      table,
    );
    expect(await table.$eval('tbody tr td', (td) => td.textContent)).toBe('0');
    const sorted = Math.round(performance.now() - clicked);
    await page.close();
    const again = await open(`${viewer.url}?session=big`); // the viewer keeps rendered cells: this is the browser's own time
    console.log(
      `live page, largest run: ${(await again.page.content()).length.toLocaleString('en-US')} characters, first load (server parses and renders) ${ms} ms, again ${again.ms} ms, sort handled in ${sorted} ms`,
    );
    await again.page.close();
  });

  it('the live page of 3,000 runs shows 50 and loads older ones on a click', async () => {
    const { page, ms } = await open(`${viewer.url}?session=long`);
    expect(await page.$$eval('.sb-run', (a) => a.length)).toBe(50);
    const clicked = performance.now();
    await page.click('.sb-older-btn');
    await page.waitForFunction(() => document.querySelectorAll('.sb-run').length === 100, { timeout: CLICK_GUARD_MS });
    const lines = await page.$$eval('.sb-run', (a) => a.map((r) => Number(r.getAttribute('data-line'))));
    expect(lines).toEqual([...lines].sort((a, b) => b - a)); // still newest first
    // the older runs' tables work like the first ones
    const table = (await page.$$('.sb-run'))[60]!;
    await (await table.$('.sb-next'))!.click();
    await page.waitForFunction(
      (el) => /^rows 21–40 of 45/.test(el.querySelector('.sb-page')?.textContent ?? ''),
      { timeout: CLICK_GUARD_MS },
      table,
    );
    console.log(
      `live page, 3,000 runs: loaded in ${ms} ms, 50 older runs in ${Math.round(performance.now() - clicked)} ms`,
    );
    await page.close();
  });
});
