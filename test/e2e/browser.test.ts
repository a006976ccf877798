// The viewer and the report in a real browser (headless Debian chromium via puppeteer-core).
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { record } from '../unit/viewer/fixtures.js';
import { browserUnavailable, launchBrowser } from './helpers/browser.js';
import { cli } from './helpers/cli.js';
import { cliEnv, ROOT } from './helpers/processes.js';
import { startViewer, type ViewerProcess } from './helpers/viewer.js';

const unavailable = browserUnavailable();
if (unavailable) console.warn(`browser tests skipped: ${unavailable}`);
const dir = mkdtempSync(join(tmpdir(), 'sbirtools-browser-'));
const log = join(dir, 'runs.jsonl');
// screenshots go to test-results/browser (or SBIRTOOLS_SCREENSHOT_DIR, e.g. docs/ to refresh the README's)
const shots = process.env.SBIRTOOLS_SCREENSHOT_DIR ?? join(ROOT, 'test-results', 'browser');
const XSS = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
const CELLS = [
  "// Which agencies fund the most awards?\nconst byAgency = value_counts(award_data, 'Agency');\nprint('agencies:', byAgency.numRows());\nplot.bar(byAgency.head(8), 'Agency', 'count');\nbyAgency",
  `// Awards by year\nconst years = award_data.groupby('Award Year').count().orderby('Award Year');\nprint(${JSON.stringify(XSS)});\nchart({ mark: 'line', data: years, encoding: { x: { field: 'Award Year', type: 'ordinal' }, y: { field: 'count', type: 'quantitative' } } });\nyears.numRows()`,
  "// Top firms\nconst firms = award_data.groupby('Company').rollup({ total: op.sum('Award Amount') })\n  .orderby(aq.desc('total'));\nfirms.slice(0, 45)",
  "// Phase split\nconst phases = value_counts(award_data, 'Phase');\nprint(phases.numRows(), 'phases');\nphases.objects().map(r => r.Phase).joined(', ')",
];

const sh = promisify(execFile);
let browser: Browser;
let viewer: ViewerProcess;

describe.skipIf(!!unavailable)('in a real browser', () => {
  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const cells = join(dir, 'cells.json');
    writeFileSync(cells, JSON.stringify(CELLS));
    await sh(process.execPath, [join(ROOT, 'test/e2e/helpers/sessionRuns.mjs'), log, 'agency-analysis', cells], {
      env: cliEnv(),
    });
    // a record an attacker wrote straight into the log: an SVG with handlers and a script
    appendFileSync(
      log,
      `${JSON.stringify(record({ time: '2020-01-01T00:00:00.000Z', session: { id: 'tampered', seq: 1 }, outputs: { stdout: XSS, charts: [{ kind: 'vega-lite', svg: '<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=3"><script>window.__pwned=4</script><rect width="40" height="20" fill="teal"/></svg>' }] } }))}\n`,
    );
    viewer = await startViewer(log);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await viewer?.stop();
  });

  it('the viewer shows tables, charts and the error at its line; tables sort and page', async () => {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => (dialogs.push(d.message()), void d.dismiss()));
    await page.goto(`${viewer.url}?session=agency-analysis`, { waitUntil: 'networkidle2' });
    await page.screenshot({ path: join(shots, 'viewer.png') });
    // the failing cell (.joined is not a function) is marked at line 4 with its hint
    const err = await page.$eval('.sb-err-line', (el) => ({
      line: el.getAttribute('data-line'),
      note: el.nextElementSibling?.textContent ?? '',
    }));
    expect(err.line).toBe('4');
    expect(err.note).toMatch(/joined is not a function/);
    expect(err.note).toMatch(/Hint:/);
    // a chart drawn as SVG
    expect(await page.$$eval('.sb-chart svg', (svgs) => svgs.length)).toBeGreaterThanOrEqual(2);
    expect(await page.$$eval('.sb-chart svg path, .sb-chart svg rect', (els) => els.length)).toBeGreaterThan(5);
    // the agency table's cells
    const agencyTable = (await page.$$('.sb-table')).at(-1)!;
    const cells = await agencyTable.$$eval('tbody td', (tds) => tds.map((td) => td.textContent));
    expect(cells).toContain('Department of Defense');
    // paging: the 45-row table shows 20 rows, Next shows 21-40
    const firms = (await page.$$('.sb-table'))[0]!; // newest first: the firms cell
    const visible = () => firms.$$eval('tbody tr', (trs) => trs.filter((tr) => !(tr as HTMLElement).hidden).length);
    expect(await firms.$eval('.sb-page', (el) => el.textContent)).toBe('rows 1–20 of 45');
    expect(await visible()).toBe(20);
    await (await firms.$('.sb-next'))!.click();
    expect(await firms.$eval('.sb-page', (el) => el.textContent)).toBe('rows 21–40 of 45');
    // sorting: ascending by total puts the smallest first
    await (await firms.$('th:nth-child(2) .sb-sort'))!.click();
    const totals = await firms.$$eval('tbody tr', (trs) =>
      trs.slice(0, 5).map((tr) => Number((tr as HTMLTableRowElement).cells[1]!.dataset.v)),
    );
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    expect(await firms.$eval('th:nth-child(2)', (th) => th.getAttribute('aria-sort'))).toBe('ascending');
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('no script from guest content runs, even from a tampered log', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (m) => violations.push(m.text()));
    await page.goto(viewer.url, { waitUntil: 'networkidle2' });
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    const tampered = await page.$eval('article[data-session="tampered"]', (a) => ({
      stdout: a.querySelector('.sb-stdout')?.textContent,
      rects: a.querySelectorAll('svg rect').length,
      scripts: a.querySelectorAll('script').length,
    }));
    expect(tampered).toEqual({ stdout: XSS, rects: 1, scripts: 0 });
    expect(await page.$$eval('[onload], [onerror], img', (els) => els.length)).toBe(0);
    await page.close();
  });

  it('updates live when a run is appended, and replays a run', async () => {
    const page = await browser.newPage();
    await page.goto(viewer.url, { waitUntil: 'domcontentloaded' });
    const before = await page.$$eval('.sb-run', (r) => r.length);
    expect(
      (
        await cli([
          'run',
          '--capsule-log',
          log,
          '--capsule-outputs',
          '--code',
          "print('appended while watching'); 6 * 7",
        ])
      ).code,
    ).toBe(0);
    await page.waitForSelector('.sb-run.sb-new', { timeout: 20_000 });
    expect(await page.$eval('.sb-run.sb-new .sb-stdout', (el) => el.textContent)).toBe('appended while watching\n');
    expect(await page.$$eval('.sb-run', (r) => r.length)).toBe(before + 1);
    expect(await page.$eval('#sb-count', (el) => el.textContent)).toBe(String(before + 1));
    // replay the new run: it reproduces
    await page.click('.sb-run.sb-new .sb-replay');
    await page.waitForFunction(
      () =>
        /reproduces|does not reproduce|failed/.test(
          document.querySelector('.sb-run.sb-new .sb-replay-out')?.textContent ?? '',
        ),
      { timeout: 60_000 },
    );
    expect(await page.$eval('.sb-run.sb-new .sb-replay-out', (el) => el.textContent)).toBe(
      'reproduces: stdout and value match',
    );
    await page.close();
  });

  it('the report opens from a file, makes no request, runs no guest script and prints', async () => {
    const out = join(dir, 'report.html');
    expect((await cli(['report', log, '--session', 'agency-analysis', '-o', out])).code).toBe(0);
    const page = await browser.newPage();
    const requests: string[] = [];
    await page.setRequestInterception(true);
    page.on('request', (req) => {
      requests.push(req.url());
      void (req.url() === pathToFileURL(out).href ? req.continue() : req.abort());
    });
    await page.goto(pathToFileURL(out).href, { waitUntil: 'load' });
    expect(requests).toEqual([pathToFileURL(out).href]);
    expect(await page.$$eval('.sb-run', (r) => r.map((a) => a.getAttribute('data-line')))).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]); // notebook order
    expect(await page.$$eval('.sb-chart svg', (s) => s.length)).toBeGreaterThanOrEqual(2);
    expect(await page.$eval('.sb-err-line', (el) => el.getAttribute('data-line'))).toBe('4');
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.screenshot({ path: join(shots, 'report.png'), fullPage: false });
    const pdf = await page.pdf({ format: 'A4', printBackground: false });
    expect(Buffer.from(pdf).subarray(0, 4).toString()).toBe('%PDF');
    await page.close();
  });
});
