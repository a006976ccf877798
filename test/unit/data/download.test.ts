import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { downloadData } from '../../../src/data/download.js';
import { syntheticCsv } from '../../../src/data/synthetic.js';
import { tempDir } from './helpers.js';

const GOOD = Buffer.from([...syntheticCsv({ rows: 300, seed: 11 })].join(''));
const OLD = Buffer.from([...syntheticCsv({ rows: 40, seed: 99 })].join(''));
const HALF = Math.floor(GOOD.length / 2);
const ETAG = '"v1"';

let server: Server;
let base: string;
const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
let flaky = 0;

/** Serves `body` whole, or a 206 tail when asked with a matching If-Range, or a 304. */
function serveFile(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, ranges = true): void {
  if (req.headers['if-none-match'] === ETAG) return void res.writeHead(304).end();
  const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  if (ranges && m && req.headers['if-range'] === ETAG) {
    const from = Number(m[1]);
    res.writeHead(206, {
      etag: ETAG,
      'content-length': body.length - from,
      'content-range': `bytes ${from}-${body.length - 1}/${body.length}`,
    });
    return void res.end(body.subarray(from));
  }
  res.writeHead(200, {
    etag: ETAG,
    'last-modified': 'Mon, 01 Sep 2025 00:00:00 GMT',
    'content-length': body.length,
    'content-type': 'text/csv',
  });
  res.end(body);
}

/** Sends headers announcing the whole body, half of it, then kills the connection. */
function cutHalfway(res: http.ServerResponse, body: Buffer): void {
  res.writeHead(200, { etag: ETAG, 'content-length': body.length });
  res.write(body.subarray(0, HALF), () => setTimeout(() => res.socket?.destroy(), 20));
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push({ path, headers: req.headers });
    if (path === '/good.csv') return serveFile(req, res, GOOD);
    if (path === '/truncated.csv') return cutHalfway(res, GOOD);
    if (path === '/flaky.csv') return flaky++ === 0 ? cutHalfway(res, GOOD) : serveFile(req, res, GOOD);
    if (path === '/norange.csv') return flaky++ === 0 ? cutHalfway(res, GOOD) : serveFile(req, res, GOOD, false);
    if (path === '/incomplete.csv') return serveFile(req, res, GOOD.subarray(0, GOOD.lastIndexOf('"') - 5));
    if (path === '/html')
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!DOCTYPE html><html><body>Maintenance</body></html>');
    if (path === '/other.csv') return void res.writeHead(200).end('a,b\n1,2\n');
    if (path === '/missing.csv') return void res.writeHead(404).end('not here');
    if (path === '/broken.csv') return void res.writeHead(500).end('oops');
    if (path === '/moved') return void res.writeHead(302, { location: '/good.csv' }).end();
    if (path === '/loop') return void res.writeHead(301, { location: '/loop' }).end();
    if (path === '/stall') return void res.writeHead(200, { 'content-length': GOOD.length }).flushHeaders();
    res.writeHead(400).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

let dir: string;
const file = () => join(dir, 'award_data.csv');
/** Each test starts with a good cached download whose bytes must survive any failure. */
beforeEach(() => {
  dir = tempDir('sbt-dl-');
  writeFileSync(file(), OLD);
  writeFileSync(
    `${file()}.json`,
    JSON.stringify({ url: `${base}/old.csv`, etag: '"old"', bytes: OLD.length, downloadedAt: '2025-01-01T00:00:00Z' }),
  );
  seen.length = 0;
  flaky = 0;
});
const dl = (path: string, extra: Parameters<typeof downloadData>[0] = {}) =>
  downloadData({ url: `${base}${path}`, cacheDir: dir, env: {}, ...extra });
const cacheIntact = () => expect(readFileSync(file()).equals(OLD)).toBe(true);

describe('downloadData against a real local HTTP server', () => {
  it('downloads a good file, records its ETag, then skips on 304', async () => {
    const r = await dl('/good.csv');
    expect(r).toMatchObject({ status: 'downloaded', bytes: GOOD.length, layout: 'current', etag: ETAG });
    expect(readFileSync(file()).equals(GOOD)).toBe(true);
    expect(JSON.parse(readFileSync(`${file()}.json`, 'utf8'))).toMatchObject({ url: `${base}/good.csv`, etag: ETAG });
    const again = await dl('/good.csv');
    expect(again.status).toBe('not-modified');
    expect(seen.at(-1)?.headers['if-none-match']).toBe(ETAG);
    expect(readFileSync(file()).equals(GOOD)).toBe(true);
    expect(existsSync(`${file()}.part`)).toBe(false);
  });

  it('follows a redirect', async () => {
    expect((await dl('/moved')).status).toBe('downloaded');
    expect(seen.map((s) => s.path)).toEqual(['/moved', '/good.csv']);
  });

  it('fails on a truncated body, keeps the part for resume, and leaves the cache intact', async () => {
    await expect(dl('/truncated.csv')).rejects.toMatchObject({ code: 'DOWNLOAD_TRUNCATED' });
    cacheIntact();
    const part = readFileSync(`${file()}.part`);
    expect(part.length).toBeGreaterThan(0);
    expect(part.equals(GOOD.subarray(0, part.length))).toBe(true);
  });

  it('resumes a partial file with Range + If-Range and a 206 answer', async () => {
    await expect(dl('/flaky.csv')).rejects.toMatchObject({ code: 'DOWNLOAD_TRUNCATED' });
    cacheIntact();
    const have = readFileSync(`${file()}.part`).length;
    const r = await dl('/flaky.csv');
    expect(r.status).toBe('resumed');
    expect(seen.at(-1)?.headers).toMatchObject({ range: `bytes=${have}-`, 'if-range': ETAG });
    expect(readFileSync(file()).equals(GOOD)).toBe(true);
  });

  it('restarts from zero when the server answers a Range request with 200', async () => {
    await expect(dl('/norange.csv')).rejects.toMatchObject({ code: 'DOWNLOAD_TRUNCATED' });
    const have = readFileSync(`${file()}.part`).length;
    const r = await dl('/norange.csv');
    expect(seen.at(-1)?.headers.range).toBe(`bytes=${have}-`);
    expect(r.status).toBe('downloaded');
    expect(readFileSync(file()).equals(GOOD)).toBe(true);
  });

  it.each([
    ['/html', 'DOWNLOAD_NOT_CSV', /HTML/],
    ['/other.csv', 'DOWNLOAD_NOT_CSV', /not an SBIR award header/],
    ['/incomplete.csv', 'DOWNLOAD_TRUNCATED', /ends inside a quoted field|last record/],
    ['/missing.csv', 'DOWNLOAD_HTTP_ERROR', /404/],
    ['/broken.csv', 'DOWNLOAD_HTTP_ERROR', /500.*try again later/],
    ['/loop', 'DOWNLOAD_TOO_MANY_REDIRECTS', /redirected more than/],
  ])('refuses %s with %s and leaves the cache intact', async (path, code, message) => {
    await expect(dl(path)).rejects.toMatchObject({ name: 'DataError', code, message: expect.stringMatching(message) });
    cacheIntact();
    if (code !== 'DOWNLOAD_TRUNCATED') expect(existsSync(`${file()}.part`)).toBe(false);
  });

  it('gives up on a stalled server after the idle timeout', async () => {
    await expect(dl('/stall', { idleTimeoutMs: 300 })).rejects.toMatchObject({
      code: 'DOWNLOAD_STALLED',
      message: expect.stringMatching(/stalled/),
    });
    cacheIntact();
  });

  it('reports an unreachable host', async () => {
    const closed = http.createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((ok) => closed.close(ok));
    await expect(downloadData({ url: `http://127.0.0.1:${port}/x.csv`, cacheDir: dir, env: {} })).rejects.toMatchObject(
      { code: 'DOWNLOAD_UNREACHABLE', message: expect.stringMatching(/Cannot reach 127\.0\.0\.1/) },
    );
    cacheIntact();
  });

  it('rejects a URL that is not http(s)', async () => {
    await expect(downloadData({ url: 'ftp://example.com/a.csv', cacheDir: dir, env: {} })).rejects.toMatchObject({
      code: 'DOWNLOAD_BAD_URL',
    });
  });

  it.skipIf(!existsSync('/dev/full'))('maps a full disk (ENOSPC) to DISK_FULL', async () => {
    symlinkSync('/dev/full', `${file()}.part`); // every write to the part file fails with ENOSPC
    await expect(dl('/good.csv', { force: true })).rejects.toMatchObject({
      code: 'DISK_FULL',
      message: expect.stringMatching(/No space left/),
    });
    cacheIntact();
  });

  it('refuses to run while another live process holds the lock', async () => {
    writeFileSync(`${file()}.lock`, String(process.pid));
    await expect(dl('/good.csv')).rejects.toMatchObject({ code: 'DOWNLOAD_IN_PROGRESS' });
    writeFileSync(`${file()}.lock`, '999999999'); // a dead pid: stale, taken over
    expect((await dl('/good.csv')).status).toBe('downloaded');
  });
});
