import { existsSync, readdirSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDownloadCommand } from '../../../src/cli/downloadData.js';
import { syntheticCsv } from '../../../src/data/synthetic.js';
import { tempDir } from './helpers.js';

const BODY = Buffer.from([...syntheticCsv({ rows: 120, seed: 5 })].join(''));
let server: Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/awards.csv') return void res.writeHead(200, { 'content-length': BODY.length }).end(BODY);
    res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

function io(isTTY = false, env: Record<string, string | undefined> = {}) {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      stdout: { write: (s: string) => (out.stdout += s) },
      stderr: { write: (s: string) => (out.stderr += s) },
      env,
      isTTY,
    },
  };
}

describe('runDownloadCommand', () => {
  it('prints help with exit 0', async () => {
    const { out, io: x } = io();
    expect(await runDownloadCommand(['--help'], x)).toBe(0);
    expect(out.stdout).toMatch(/^Usage: sbirtools download-data \[URL\]/);
    expect(out.stdout).toContain('SBIRTOOLS_CSV_PATH');
  });

  it('rejects bad usage with exit 2 and the usage text', async () => {
    const { out, io: x } = io();
    expect(await runDownloadCommand(['--bogus'], x)).toBe(2);
    expect(out.stderr).toMatch(/Unknown option '--bogus'[\s\S]*Usage:/);
    expect(await runDownloadCommand(['--idle-timeout-ms', '-5'], x)).toBe(2);
    expect(await runDownloadCommand(['a', 'b'], x)).toBe(2);
  });

  it('downloads and builds the columnar cache, printing summary lines (no progress bar off a TTY)', async () => {
    const dir = tempDir();
    const { out, io: x } = io(false, { SBIRTOOLS_CACHE_DIR: dir });
    expect(await runDownloadCommand([`${base}/awards.csv`], x)).toBe(0);
    expect(out.stderr).toBe('');
    expect(out.stdout).toMatch(
      /^Downloaded 0\.\d MB in [\d.]+ s to .*award_data\.csv \(current layout\)\nColumnar cache ready: 120 rows, 42 columns \(current layout\)\n$/,
    );
    expect(existsSync(join(dir, 'award_data.csv'))).toBe(true);
    expect(readdirSync(join(dir, 'columnar'))).toHaveLength(1);
  });

  it('takes the URL from SBIRTOOLS_CSV_URL and draws a progress bar on a TTY', async () => {
    const dir = tempDir();
    const { out, io: x } = io(true, { SBIRTOOLS_CSV_URL: `${base}/awards.csv` });
    expect(await runDownloadCommand(['--cache-dir', dir, '--download-only'], x)).toBe(0);
    expect(out.stderr).toMatch(/\raward_data\.csv \[#+\] 100% .*MB\/s/);
    expect(existsSync(join(dir, 'columnar'))).toBe(false);
  });

  it('prints the error code and message, exit 1', async () => {
    const { out, io: x } = io(false, { SBIRTOOLS_CACHE_DIR: tempDir() });
    expect(await runDownloadCommand([`${base}/gone.csv`], x)).toBe(1);
    expect(out.stderr).toMatch(/^error \[DOWNLOAD_HTTP_ERROR\]: .*404/);
  });
});
