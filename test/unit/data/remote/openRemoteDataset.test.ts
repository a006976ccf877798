import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync, mkdirSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDataDir, openDataDir } from '../../../../src/data/dataDir.js';
import { DataError } from '../../../../src/data/errors.js';
import { openDataset } from '../../../../src/data/openDataset.js';
import { resolveDataSource } from '../../../../src/data/resolveDataSource.js';
import { openRemoteDataset } from '../../../../src/data/remote/openRemoteDataset.js';
import { startDataFolderServer, type DataFolderServer } from '../../../helpers/dataFolderServer.js';
import { decode, tempDir } from '../helpers.js';

// The server runs in its own process: a column load blocks this thread while its worker fetches.
let folder: string;
let server: DataFolderServer;
let other: DataFolderServer;
let manifest: { columns: Array<{ name: string; file: string; bytes: number; sha256: string }> };
const fileOf = (name: string) => `/${manifest.columns.find((c) => c.name === name)!.file}`;
const env = {};

beforeAll(async () => {
  folder = join(tempDir('sbt-remote-src-'), 'data');
  await writeDataDir(folder, resolveDataSource({ cacheDir: tempDir(), env: {} }), openDataset);
  manifest = JSON.parse(readFileSync(join(folder, 'sbirtools-data.json'), 'utf8'));
  server = await startDataFolderServer(folder);
  other = await startDataFolderServer(folder);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await other?.close();
});

async function fresh(faults: Parameters<DataFolderServer['faults']>[0] = {}) {
  await server.faults(faults);
  await server.clear();
  return tempDir('sbt-remote-cache-');
}
const cachedFiles = (cacheDir: string) => {
  try {
    const remote = join(cacheDir, 'remote');
    return readdirSync(remote).flatMap((d) => readdirSync(join(remote, d)));
  } catch {
    return [];
  }
};
function failure(f: () => unknown): DataError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(DataError);
    return err as DataError;
  }
  throw new Error('expected a DataError');
}
async function failureAsync(p: Promise<unknown>): Promise<DataError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(DataError);
    return err as DataError;
  }
  throw new Error('expected a DataError');
}

describe('remote data: a built data folder over HTTP', () => {
  it('fetches the manifest on open, each column on its first touch, verified, the same values as the local folder', async () => {
    const cache = await fresh();
    const ds = await openRemoteDataset(server.url, cache, {}, env);
    expect((await server.log()).map((r) => r.path)).toEqual(['/sbirtools-data.json']);
    const local = openDataDir(folder);
    expect(ds.meta).toEqual(local.meta);
    for (const name of ['Award Amount', 'Agency', 'Abstract', 'Proposal Award Date'])
      expect(decode(ds.loadColumn(name))).toEqual(decode(local.loadColumn(name)));
    expect((await server.log()).map((r) => r.path)).toEqual([
      '/sbirtools-data.json',
      fileOf('Award Amount'),
      fileOf('Agency'),
      fileOf('Abstract'),
      fileOf('Proposal Award Date'),
    ]);
    ds.loadColumn('Agency'); // memoized: no request
    expect(await server.log()).toHaveLength(5);
    expect(ds.remote.bytesFetched).toBe(
      ['Award Amount', 'Agency', 'Abstract', 'Proposal Award Date'].reduce(
        (n, c) => n + manifest.columns.find((m) => m.name === c)!.bytes,
        0,
      ),
    );
  });

  it('a second open reads cached columns with no request (manifest revalidated with If-None-Match -> 304)', async () => {
    const cache = await fresh();
    (await openRemoteDataset(server.url, cache, {}, env)).loadColumn('Agency');
    await server.clear();
    const again = await openRemoteDataset(server.url, cache, {}, env);
    expect(decode(again.loadColumn('Agency'))).toEqual(decode(openDataDir(folder).loadColumn('Agency')));
    const log = await server.log();
    expect(log.map((r) => r.path)).toEqual(['/sbirtools-data.json']);
    expect(log[0]!.inm).toMatch(/^"/);
  });

  it("while the manifest's Cache-Control max-age holds, a second open makes no request at all", async () => {
    const cache = await fresh({ '/sbirtools-data.json': { cacheControl: 'public, max-age=600' } });
    (await openRemoteDataset(server.url, cache, {}, env)).loadColumn('Phase');
    await server.clear();
    (await openRemoteDataset(server.url, cache, {}, env)).loadColumn('Phase');
    expect(await server.log()).toEqual([]);
  });

  it('a body cut short is resumed with an HTTP Range request', async () => {
    const cache = await fresh({ [fileOf('Abstract')]: { truncateAfter: 4096, times: 1 } });
    const ds = await openRemoteDataset(server.url, cache, {}, env);
    expect(decode(ds.loadColumn('Abstract'))).toEqual(decode(openDataDir(folder).loadColumn('Abstract')));
    const asks = (await server.log()).filter((r) => r.path === fileOf('Abstract'));
    expect(asks).toHaveLength(2);
    expect(asks[0]!.range).toBeNull();
    expect(asks[1]!.range).toMatch(/^bytes=[1-9]\d*-$/);
  });

  it('a server that ignores ranges gets the whole file again', async () => {
    const cache = await fresh({ [fileOf('Abstract')]: { truncateAfter: 4096, times: 1, noRange: true } });
    const ds = await openRemoteDataset(server.url, cache, {}, env);
    expect(decode(ds.loadColumn('Abstract'))).toEqual(decode(openDataDir(folder).loadColumn('Abstract')));
  });

  it('404: DATA_FETCH_FAILED with host, path, status and a hint, for a column and for the manifest', async () => {
    const cache = await fresh({ [fileOf('City')]: { status: 404 } });
    const ds = await openRemoteDataset(server.url, cache, {}, env);
    const e = failure(() => ds.loadColumn('City'));
    expect(e.code).toBe('DATA_FETCH_FAILED');
    expect({ host: e.host, path: e.path, status: e.status }).toEqual({
      host: server.host,
      path: fileOf('City'),
      status: 404,
    });
    expect(e.message).toContain(server.host);
    expect(e.message).toContain(fileOf('City'));
    expect(e.message).not.toMatch(/\n\s+at /);
    expect(e.hint).toMatch(/build-data/);
    expect(cachedFiles(cache).filter((f) => f.endsWith('.col'))).toEqual([]);
    const m = await failureAsync(openRemoteDataset(`${server.url}missing/`, cache, {}, env));
    expect({ code: m.code, status: m.status, path: m.path }).toEqual({
      code: 'DATA_FETCH_FAILED',
      status: 404,
      path: '/missing/sbirtools-data.json',
    });
  });

  it('a 5xx is retried with backoff, then fails naming the attempts', async () => {
    const cache = await fresh({ [fileOf('City')]: { status: 503 } });
    const ds = await openRemoteDataset(server.url, cache, { retries: 2 }, env);
    const e = failure(() => ds.loadColumn('City'));
    expect(e.status).toBe(503);
    expect(e.message).toMatch(/after 3 attempts/);
    expect((await server.log()).filter((r) => r.path === fileOf('City'))).toHaveLength(3);
  });

  it('a slow server: the per-transfer deadline ends the fetch; nothing is cached', async () => {
    const cache = await fresh({ [fileOf('State')]: { delayMs: 5000 } });
    const ds = await openRemoteDataset(server.url, cache, { deadlineMs: 400, retries: 0 }, env);
    const e = failure(() => ds.loadColumn('State'));
    expect(e.code).toBe('DATA_FETCH_FAILED');
    expect(e.message).toMatch(/deadline/);
    expect(cachedFiles(cache).filter((f) => f.endsWith('.col'))).toEqual([]);
  });

  it('a server silent past the request timeout is retried, then fails', async () => {
    const cache = await fresh({ [fileOf('State')]: { delayMs: 3000 } });
    const ds = await openRemoteDataset(server.url, cache, { requestTimeoutMs: 200, retries: 1 }, env);
    const e = failure(() => ds.loadColumn('State'));
    expect(e.message).toMatch(/no byte for 200 ms[\s\S]*after 2 attempts/);
  });

  it('a body always cut short fails after its retries; no partial file is cached', async () => {
    const cache = await fresh({ [fileOf('Abstract')]: { truncateAfter: 1000, noRange: true } });
    const ds = await openRemoteDataset(server.url, cache, { retries: 1 }, env);
    const e = failure(() => ds.loadColumn('Abstract'));
    expect(e.message).toMatch(/ended after \d+ of \d+ bytes/);
    expect(cachedFiles(cache).filter((f) => f !== 'manifest.json' && f !== 'manifest.meta.json')).toEqual([]);
  });

  it('a body whose hash differs from the manifest is refused and never cached; the next touch fetches again', async () => {
    const cache = await fresh({ [fileOf('Company')]: { corrupt: true } });
    const ds = await openRemoteDataset(server.url, cache, {}, env);
    const e = failure(() => ds.loadColumn('Company'));
    expect(e.message).toMatch(/hash/);
    expect(e.hint).toMatch(/Upload the whole folder again/);
    expect(cachedFiles(cache).filter((f) => f.endsWith('.col') || f.includes('.tmp-'))).toEqual([]);
    await server.faults({});
    expect(decode(ds.loadColumn('Company'))).toEqual(decode(openDataDir(folder).loadColumn('Company')));
  });

  it('a redirect to another host is refused unless that host is allowed', async () => {
    const target = `${other.url}${fileOf('Branch').slice(1)}`;
    const cache = await fresh({ [fileOf('Branch')]: { redirect: target } });
    const ds = await openRemoteDataset(server.url, cache, {}, env);
    const e = failure(() => ds.loadColumn('Branch'));
    expect(e.message).toMatch(/redirect to another host \(127\.0\.0\.1:\d+\) was refused/);
    expect(e.status).toBe(302);
    const allowed = await openRemoteDataset(server.url, cache, { allowRedirectHosts: [other.host] }, env);
    expect(decode(allowed.loadColumn('Branch'))).toEqual(decode(openDataDir(folder).loadColumn('Branch')));
    const viaEnv = await openRemoteDataset(server.url, tempDir(), {}, { SBIRTOOLS_DATA_ALLOW_HOSTS: other.host });
    expect(viaEnv.loadColumn('Branch').kind).toBe('dict');
  });

  it('plain http:// is refused for a host that is not loopback (before any request), unless allowed', async () => {
    const e = await failureAsync(openRemoteDataset('http://sbir-data.example/folder/', tempDir(), {}, env));
    expect(e.code).toBe('DATA_FETCH_FAILED');
    expect(e.message).toMatch(/plain http:\/\/ is only used for loopback/);
    expect(e.hint).toMatch(/SBIRTOOLS_DATA_ALLOW_HTTP/);
    const ftp = await failureAsync(openRemoteDataset('ftp://host/x/', tempDir(), {}, env));
    expect(ftp.message).toMatch(/scheme ftp: is not supported/);
  });

  it('a byte cap per column: a column file over maxColumnBytes is refused', async () => {
    const cache = await fresh();
    const ds = await openRemoteDataset(server.url, cache, { maxColumnBytes: 100 }, env);
    // the manifest's size is the first check (no request), the body cap the second
    const e = failure(() => ds.loadColumn('Abstract'));
    expect(e.code).toBe('DATA_FETCH_FAILED');
    expect(e.message).toMatch(/over the cap|maxColumnBytes|cap of 100/);
  });

  it('a manifest of another format version is refused as CACHE_CORRUPT with the command to rebuild', async () => {
    const dir = join(tempDir(), 'v9');
    mkdirSync(dir);
    cpSync(folder, dir, { recursive: true });
    const text = readFileSync(join(dir, 'sbirtools-data.json'), 'utf8');
    writeFileSync(join(dir, 'sbirtools-data.json'), text.replace('"v": 2', '"v": 9'));
    const s = await startDataFolderServer(dir);
    try {
      const e = await failureAsync(openRemoteDataset(s.url, tempDir(), {}, env));
      expect(e.code).toBe('CACHE_CORRUPT');
      expect(e.message).toMatch(/build-data/);
    } finally {
      await s.close();
    }
  });

  it("loads a column from a `node --input-type=module -e` script (the main script's flags never reach the fetch thread)", () => {
    const mod = join(import.meta.dirname, '../../../../dist/src/data/remote/openRemoteDataset.js');
    const script = `const { openRemoteDataset } = await import(${JSON.stringify(mod)});
      const ds = await openRemoteDataset(${JSON.stringify(server.url)}, ${JSON.stringify(tempDir())}, { deadlineMs: 30000 }, {});
      console.log(ds.loadColumn('Agency').kind);`;
    expect(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        timeout: 120_000,
      }).trim(),
    ).toBe('dict');
  });

  it('resolveDataSource: an http(s) dataPath or SBIRTOOLS_DATA_URL is remote data, cached under the temp dir unless a cache dir is set', () => {
    const a = resolveDataSource({ dataPath: 'https://cdn.example.com/sbir/', env: {} });
    expect(a).toMatchObject({ kind: 'remote', url: 'https://cdn.example.com/sbir/', origin: 'dataPath' });
    expect(a.cacheDir).toMatch(/sbirtools$/);
    const b = resolveDataSource({
      env: {
        SBIRTOOLS_DATA_URL: 'https://cdn.example.com/x/',
        SBIRTOOLS_CSV_PATH: '/a.csv',
        SBIRTOOLS_CACHE_DIR: '/c',
      },
    });
    expect(b).toMatchObject({
      kind: 'remote',
      url: 'https://cdn.example.com/x/',
      cacheDir: '/c',
      origin: 'dataUrlEnv',
    });
    expect(resolveDataSource({ dataPath: '/local.csv', env: { SBIRTOOLS_DATA_URL: 'https://x/' } }).kind).toBe('csv');
    expect(() => resolveDataSource({ dataPath: 'https://x/', remote: { retries: -1 }, env: {} })).toThrow(
      /remoteData.retries/,
    );
  });
});
