// The viewer mounted in `sbirtools serve` at /ui: behind the same API key, each key sees only its own runs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, stop, type ServeProcess } from './helpers/serve.js';

const KEY_A = 'key-a-0123456789abcdef';
const KEY_B = 'key-b-0123456789abcdef';
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const run = (base: string, key: string, code: string) =>
  fetch(`${base}/v1/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth(key) },
    body: JSON.stringify({ code }),
  });

describe('sbirtools serve --capsule-log --capsule-outputs: the viewer at /ui', () => {
  let s: ServeProcess;
  beforeAll(async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'sbirtools-serve-ui-')), 'runs.jsonl');
    s = await startServe(['--capsule-log', log, '--capsule-outputs', '--quiet'], {
      SBIRTOOLS_API_KEYS: `${KEY_A},${KEY_B}`,
    });
    expect((await run(s.url, KEY_A, "print('run of key A'); value_counts(award_data, 'Phase')")).status).toBe(200);
    expect((await run(s.url, KEY_B, "print('run of key B')")).status).toBe(200);
  });
  afterAll(async () => {
    await stop(s);
  });

  it('needs the API key, like every route', async () => {
    expect((await fetch(`${s.url}/ui/`)).status).toBe(401);
    expect((await fetch(`${s.url}/ui/`, { headers: auth('key-c-0123456789abcdef') })).status).toBe(401);
    expect((await fetch(`${s.url}/ui/?key=wrong`)).status).toBe(401);
  });

  it('shows each key only its own runs, with their outputs, under a strict CSP', async () => {
    const a = await fetch(`${s.url}/ui/`, { headers: auth(KEY_A) });
    expect(a.status).toBe(200);
    expect(a.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    const page = await a.text();
    expect(page).toContain('run of key A');
    expect(page).toContain('Returned table');
    expect(page).not.toContain('run of key B');
    const fragment = await (await fetch(`${s.url}/ui/fragment?after=0`, { headers: auth(KEY_B) })).json();
    expect(fragment.count).toBe(1);
    expect(fragment.runs).toContain('run of key B');
    expect(fragment.runs).not.toContain('run of key A');
  });

  it('a browser opens /ui/?key= once and then carries the key in an HttpOnly SameSite=Strict cookie', async () => {
    const first = await fetch(`${s.url}/ui/?key=${KEY_B}&session=x`, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/ui/?session=x');
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^sbirtools_key=key-b-0123456789abcdef; Path=\/ui; HttpOnly; SameSite=Strict/);
    const page = await fetch(`${s.url}/ui/`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('run of key B');
    expect(html).not.toContain('run of key A');
    // the cookie opens only the viewer, not the API
    expect((await fetch(`${s.url}/v1/sessions`, { headers: { cookie: cookie.split(';')[0]! } })).status).toBe(401);
  });

  it("replays only the key's own records, with the page token", async () => {
    const html = await (await fetch(`${s.url}/ui/`, { headers: auth(KEY_A) })).text();
    const token = /data-token="([^"]+)"/.exec(html)![1]!;
    const line = Number(/data-line="(\d+)"/.exec(html)![1]);
    const replay = (key: string, l: number) =>
      fetch(`${s.url}/ui/replay`, {
        method: 'POST',
        headers: { ...auth(key), 'x-sbirtools-viewer': token },
        body: JSON.stringify({ line: l }),
      });
    const mine = await replay(KEY_A, line);
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ line, match: true });
    expect((await replay(KEY_B, line)).status).toBe(404); // A's record is not B's to replay
  });
});
