import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv, ROOT } from './helpers/processes.js';

type Content = Array<{ type: string; text?: string }>;

/**
 * The model names the URL add_table fetches. Over stdio, as over HTTP, a server started without
 * --allow-table-urls must not contact the address at all: a prompt-injected model could otherwise
 * make the host read a loopback service, an internal API or a cloud metadata endpoint.
 */
describe('sbirtools mcp: add_table urls are refused unless the operator allows them', () => {
  let http: Server;
  let base = '';
  const requests: string[] = [];

  beforeAll(async () => {
    http = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/csv' }).end('secret,value\ntoken,42\n');
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => http.close(resolve));
  });

  async function withServer<T>(args: string[], body: (c: Client) => Promise<T>): Promise<T> {
    const c = new Client({ name: 'e2e-table-urls', version: '1.0.0' });
    await c.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', ...args],
        cwd: ROOT,
        env: cliEnv(),
        stderr: 'pipe',
      }),
    );
    try {
      return await body(c);
    } finally {
      await c.close();
    }
  }

  it('by default: a typed error, and the named address never sees a request', async () => {
    await withServer([], async (c) => {
      for (const path of ['/metrics', '/latest/meta-data/iam']) {
        const res = await c.callTool({
          name: 'add_table',
          arguments: { name: 'remote', url: `${base}${path}`, format: 'csv' },
        });
        expect(res.isError).toBe(true);
        expect((res.content as Content)[0]!.text).toMatch(
          /DOWNLOAD_BAD_URL: this server does not download tables from URLs a model names[\s\S]*hint: Send the file itself/,
        );
      }
      // the server keeps serving, and no table was bound
      const run = await c.callTool({ name: 'run_analysis', arguments: { code: 'typeof remote' } });
      expect((run.structuredContent as { value: unknown }).value).toBe('undefined');
    });
    expect(requests).toEqual([]);
  });

  it('--deny-table-urls (the old opt-in) still starts and refuses; it contradicts --allow-table-urls', async () => {
    await withServer(['--deny-table-urls'], async (c) => {
      const res = await c.callTool({ name: 'add_table', arguments: { name: 'remote', url: `${base}/x.csv` } });
      expect(res.isError).toBe(true);
    });
    expect(requests).toEqual([]);
    const { spawnSync } = await import('node:child_process');
    const both = spawnSync(process.execPath, [CLI, 'mcp', '--allow-table-urls', '--deny-table-urls'], {
      cwd: ROOT,
      env: cliEnv(),
      encoding: 'utf8',
      input: '',
    });
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/--allow-table-urls and --deny-table-urls contradict each other/);
  });
});
