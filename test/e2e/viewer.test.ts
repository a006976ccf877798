import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCapsules } from '../../src/capsule/readCapsules.js';
import { cli } from './helpers/cli.js';
import { fetchText, nextRunsEvent, startViewer, type ViewerProcess } from './helpers/viewer.js';

const dir = mkdtempSync(join(tmpdir(), 'sbirtools-view-'));
const log = join(dir, 'runs.jsonl');
let viewer: ViewerProcess;

beforeAll(async () => {
  // one run with outputs, one written the old way (no outputs): both must show and replay
  expect(
    (
      await cli([
        'run',
        '--capsule-log',
        log,
        '--capsule-outputs',
        '--code',
        "print('hello'); plot.bar(value_counts(award_data, 'Agency').head(3), 'Agency', 'count'); value_counts(award_data, 'Phase')",
      ])
    ).code,
  ).toBe(0);
  expect((await cli(['run', '--capsule-log', log, '--code', "print('old style'); 6 * 7"])).code).toBe(0);
  viewer = await startViewer(log);
});
afterAll(async () => {
  expect(await viewer?.stop()).toBe(0);
});

describe('sbirtools view', () => {
  it('serves the page on loopback with a strict CSP and every run of the log', async () => {
    expect(viewer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const r = await fetchText(viewer.url);
    expect(r.status).toBe(200);
    const csp = String(r.headers['content-security-policy']);
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src 'nonce-${nonce}'`);
    expect(r.body).toContain(`<script nonce="${nonce}">`);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.body).toContain('hello');
    expect(r.body).toMatch(/<svg[^>]*>/);
    expect(r.body).toContain('Returned table');
    expect(r.body).toContain('No outputs in this record');
    expect(r.body).toContain('SYNTHETIC data');
    // newest first: the old-style run (line 2) comes before line 1
    expect(r.body.indexOf('data-line="2"')).toBeLessThan(r.body.indexOf('data-line="1"'));
  });

  it('answers only its own Host (DNS rebinding) and only reads', async () => {
    const port = new URL(viewer.url).port;
    expect((await fetchText(viewer.url, { headers: { host: `evil.example:${port}` } })).status).toBe(421);
    expect((await fetchText(viewer.url, { method: 'POST' })).status).toBe(405);
    expect((await fetchText(`${viewer.url}nope`)).status).toBe(404);
  });

  it('pushes an event when a run is appended, and /fragment returns the new cell', async () => {
    const sse = nextRunsEvent(viewer.url);
    await sse.ready;
    expect(
      (await cli(['run', '--capsule-log', log, '--capsule-outputs', '--code', "print('third run <live>')"])).code,
    ).toBe(0);
    await sse.event;
    sse.close();
    const f = JSON.parse((await fetchText(`${viewer.url}fragment?after=2`)).body) as {
      runs: string;
      lastLine: number;
      count: number;
    };
    expect(f.lastLine).toBe(3);
    expect(f.count).toBe(3);
    expect(f.runs).toContain('third run &lt;live&gt;');
    expect(f.runs).not.toContain('data-line="2"');
  });

  it('replays a run (new and old records) only with the page token', async () => {
    const page = (await fetchText(viewer.url)).body;
    const token = /data-token="([^"]+)"/.exec(page)![1]!;
    const body = JSON.stringify({ line: 1 });
    expect(
      (
        await fetchText(`${viewer.url}replay`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await fetchText(`${viewer.url}replay`, {
          method: 'POST',
          body: JSON.stringify({ line: 99 }),
          headers: { 'x-sbirtools-viewer': token },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await fetchText(`${viewer.url}replay`, {
          method: 'POST',
          body: '{"line":"1; rm"}',
          headers: { 'x-sbirtools-viewer': token },
        })
      ).status,
    ).toBe(400);
    for (const line of [1, 2]) {
      const r = await fetchText(`${viewer.url}replay`, {
        method: 'POST',
        body: JSON.stringify({ line }),
        headers: { 'x-sbirtools-viewer': token },
      });
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body)).toMatchObject({ line, match: true, stdoutMatch: true, valueMatch: true });
    }
    // the viewer never writes to the log
    expect((await readCapsules(log)).length).toBe(3);
  });
});

describe('sbirtools report', () => {
  it('writes one self-contained file; a wrong session is a usage error that lists the sessions', async () => {
    const out = join(dir, 'report.html');
    const r = await cli(['report', log, '-o', out]);
    expect(r.code).toBe(0);
    const page = readFileSync(out, 'utf8');
    expect(page).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;/);
    expect(page).toContain('hello');
    expect(page).not.toMatch(/<(link|img|iframe)\b|src=|https?:\/\/(?!www\.w3\.org)/);
    expect(page.indexOf('data-line="1"')).toBeLessThan(page.indexOf('data-line="2"')); // notebook order
    const bad = await cli(['report', log, '--session', 'nope', '-o', out]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no session 'nope'; its sessions: "" \(runs without a session\)/);
    expect((await cli(['report', log])).stderr).toMatch(/missing -o/);
    expect((await cli(['report', join(dir, 'missing.jsonl'), '-o', out])).stderr).toMatch(/does not exist/);
  });

  it('--capsule-outputs without --capsule-log is a usage error', async () => {
    const r = await cli(['run', '--capsule-outputs', '--code', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--capsule-outputs needs --capsule-log/);
  });
});
