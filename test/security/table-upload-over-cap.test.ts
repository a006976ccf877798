// Attack: a table larger than its cap, by every way in: bytes handed to the library, a file on
// disk, a URL whose server announces a huge Content-Length, and a URL that streams without end
// and lies about nothing (no Content-Length). Each is refused with DATA_TOO_LARGE before it is
// decoded; the download stops at the cap and leaves no file in the cache; the host carries on.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataError } from '../../src/data/index.js';
import { loadTable } from '../../src/data/formats/loadTable.js';
import { expectHealthy } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'sbirtools-cap-'));
const cacheDir = join(dir, 'cache');
let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/announced.parquet') {
      res.writeHead(200, { 'content-length': String(10 * 1024 * 1024 * 1024) });
      res.write(Buffer.alloc(1024));
      return; // never finishes: the client must stop on the header alone
    }
    // endless body, no Content-Length
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      while (res.write(chunk)) if (res.destroyed) return;
      res.once('drain', pump);
    };
    res.on('error', () => undefined);
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

async function code(p: Promise<unknown>): Promise<string | undefined> {
  return p.then(
    () => undefined,
    (e: unknown) => (e instanceof DataError ? e.code : String(e)),
  );
}

describe('tables over their size cap', () => {
  const caps = { maxInputBytes: 100_000 };

  it('bytes over the cap', async () => {
    expect(await code(loadTable('t', { bytes: new Uint8Array(200_000), format: 'parquet' }, { cacheDir, caps }))).toBe(
      'DATA_TOO_LARGE',
    );
  });

  it('a file over the cap', async () => {
    const path = join(dir, 'big.ndjson');
    writeFileSync(path, '{"a":1}\n'.repeat(30_000));
    expect(await code(loadTable('t', path, { cacheDir, caps }))).toBe('DATA_TOO_LARGE');
  });

  it('a URL announcing 10 GiB is refused on its headers', async () => {
    expect(await code(loadTable('t', `${base}/announced.parquet`, { cacheDir, caps }))).toBe('DATA_TOO_LARGE');
  });

  it('an endless URL body is cut at the cap and leaves nothing in the cache', async () => {
    expect(await code(loadTable('t', `${base}/endless.parquet`, { cacheDir, caps }))).toBe('DATA_TOO_LARGE');
    const tables = join(cacheDir, 'tables');
    const left = existsSync(tables) ? readdirSync(tables).filter((f) => !f.endsWith('.lock')) : [];
    expect(left).toEqual([]);
  });

  it('the host is unharmed', async () => {
    await expectHealthy();
  });
});
