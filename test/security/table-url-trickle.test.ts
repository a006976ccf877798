// Attack: a table URL whose server sends a byte now and then, forever (never idle long enough for
// the idle timeout): it held a run for three minutes. The whole transfer is bounded: the library's
// tables by the run's own deadline (timeoutMs), add_table by the sandbox's deadline, each with
// DOWNLOAD_DEADLINE, and the host stays usable.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataError } from '../../src/data/errors.js';
import { run } from '../../src/index.js';
import { CLI, cliEnv, ROOT } from '../e2e/helpers/processes.js';
import { expectHealthy } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'sbirtools-trickle-'));
let server: Server;
let base = '';
const open = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((req, res) => {
    // a CSV header, then one byte every 100 ms; bounded: at most 10 minutes of bytes
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.write('a,b\n');
    open.add(res);
    let n = 0;
    const timer = setInterval(() => {
      if (++n > 6000 || res.destroyed) {
        clearInterval(timer);
        res.end();
        return;
      }
      res.write('1');
    }, 100);
    res.on('close', () => {
      clearInterval(timer);
      open.delete(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of open) res.destroy();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('a table URL that trickles forever', () => {
  it('a run with it as a table ends with DOWNLOAD_DEADLINE at the run deadline', async () => {
    const err = await run('1', {
      awardData: false,
      cacheDir: dir,
      timeoutMs: 1500,
      tables: { slow: `${base}/slow.csv` },
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('DOWNLOAD_DEADLINE');
    expect((err as DataError).message).toMatch(/did not finish within 1500 ms, the bound for the whole transfer/);
    // the server saw the connection closed
    await expect.poll(() => open.size, { timeout: 10_000 }).toBe(0);
  });

  it('MCP add_table ends with DOWNLOAD_DEADLINE and the server keeps serving', async () => {
    const c = new Client({ name: 'trickle', version: '1.0.0' });
    await c.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--allow-table-urls', '--allow-private-table-urls', '--timeout-ms', '2000'],
        cwd: ROOT,
        env: cliEnv({ SBIRTOOLS_CACHE_DIR: join(dir, 'mcp') }),
        stderr: 'pipe',
      }),
    );
    try {
      const res = await c.callTool({ name: 'add_table', arguments: { name: 'slow', url: `${base}/slow.csv` } });
      expect(res.isError).toBe(true);
      expect((res.content as Array<{ text: string }>)[0]!.text).toMatch(/^error: DOWNLOAD_DEADLINE: /);
      const after = await c.callTool({ name: 'run_analysis', arguments: { code: '1 + 1' } });
      expect((after.structuredContent as { value: unknown }).value).toBe(2);
    } finally {
      await c.close();
    }
  });

  it('the host is unharmed', async () => {
    await expectHealthy();
  });
});
