// Attack: a URL a model names (add_table) points the host at a loopback service, a private
// network or a cloud metadata address, directly, through another spelling of the address, through
// a host name that resolves there, or through a redirect from an allowed address. With
// destinations 'public' (add_table's default once --allow-table-urls is given) every hop's address
// is checked, DNS is resolved once and the socket connects to the checked address, and the refused
// server never sees a request (DOWNLOAD_BLOCKED).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataError } from '../../src/data/errors.js';
import { downloadTable } from '../../src/data/formats/downloadTable.js';
import { CLI, cliEnv, ROOT } from '../e2e/helpers/processes.js';
import { startServe, stop } from '../e2e/helpers/serve.js';

const dir = mkdtempSync(join(tmpdir(), 'sbirtools-ssrf-'));
const requests: string[] = [];
let target: Server;
let port = 0;
let other: Server | undefined;
let otherPort = 0;

function serve(host: string, handler: Parameters<typeof createServer>[0]): Promise<[Server, number]> {
  const s = createServer(handler);
  return new Promise((resolve, reject) => {
    s.once('error', reject);
    s.listen(0, host, () => resolve([s, (s.address() as AddressInfo).port]));
  });
}

beforeAll(async () => {
  [target, port] = await serve('127.0.0.1', (req, res) => {
    requests.push(`127.0.0.1${req.url}`);
    if (req.url?.startsWith('/hop'))
      return res.writeHead(302, { location: `http://127.0.0.2:${otherPort}/metrics` }).end();
    res.writeHead(200, { 'content-type': 'text/csv' }).end('secret,value\ntoken,42\n');
  });
  // a second loopback address stands in for "the internal service" a redirect leads to
  [other, otherPort] = await serve('127.0.0.2', (req, res) => {
    requests.push(`127.0.0.2${req.url}`);
    res.writeHead(200).end('internal\n1\n');
  });
});
afterAll(async () => {
  await new Promise((r) => target.close(r));
  if (other) await new Promise((r) => other!.close(r));
  rmSync(dir, { recursive: true, force: true });
});

async function refusal(
  href: string,
  destinations: Parameters<typeof downloadTable>[3] extends infer O
    ? O extends { destinations?: infer D }
      ? D
      : never
    : never = 'public',
): Promise<DataError> {
  const err = await downloadTable(href, dir, 1e6, { destinations }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, href).toBeInstanceOf(DataError);
  return err as DataError;
}

describe('a table URL that points at a non-public address', () => {
  it('is refused in every spelling of a loopback or private address, and nothing is requested', async () => {
    const spellings = [
      `127.0.0.1:${port}`,
      `2130706433:${port}`,
      `0x7f.0.0.1:${port}`,
      `127.1:${port}`,
      `[::ffff:127.0.0.1]:${port}`,
      `[::ffff:7f00:1]:${port}`,
      `[::1]:${port}`,
      `169.254.169.254`,
      `[fd00::1]`,
      `10.0.0.1`,
      `100.64.0.1`,
      `0.0.0.0:${port}`,
    ];
    for (const host of spellings) {
      const err = await refusal(`http://${host}/latest/meta-data/`);
      expect(err.code, host).toBe('DOWNLOAD_BLOCKED');
      expect(err.message).toMatch(
        /Refused to fetch .*: .* is (loopback|link-local|unique local|private|carrier-grade|this network|IPv4-mapped)/,
      );
      expect(err.hint).toMatch(/Send the file itself/);
    }
    expect(requests).toEqual([]);
  });

  it('a host name is resolved once and refused when it resolves to a private address (localhost)', async () => {
    const err = await refusal(`http://localhost:${port}/metrics`);
    expect(err.code).toBe('DOWNLOAD_BLOCKED');
    expect(err.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1), loopback/);
    expect(requests).toEqual([]);
  });

  it('every redirect is checked again: an allowed address that redirects to a refused one fetches nothing there', async () => {
    // allow 127.0.0.1 only (standing in for a public server), refuse everything else
    const onlyFirst = (address: string) => (address === '127.0.0.1' ? undefined : 'not the allowed test address');
    const err = await refusal(`http://127.0.0.1:${port}/hop`, onlyFirst);
    expect(err.code).toBe('DOWNLOAD_BLOCKED');
    expect(err.message).toContain(`http://127.0.0.2:${otherPort}/metrics`);
    expect(requests).toEqual(['127.0.0.1/hop']);
    requests.length = 0;
  });

  it("with destinations 'any' (an operator's own URL) the same address is fetched", async () => {
    const path = await downloadTable(`http://127.0.0.1:${port}/ok.csv`, dir, 1e6, { destinations: 'any' });
    expect(path).toMatch(/\.csv$/);
    expect(requests).toEqual(['127.0.0.1/ok.csv']);
    requests.length = 0;
  });

  async function mcp(args: string[], body: (c: Client) => Promise<void>): Promise<void> {
    const c = new Client({ name: 'ssrf', version: '1.0.0' });
    await c.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', ...args],
        cwd: ROOT,
        env: cliEnv({ SBIRTOOLS_CACHE_DIR: join(dir, 'mcp') }),
        stderr: 'pipe',
      }),
    );
    try {
      await body(c);
    } finally {
      await c.close();
    }
  }

  it('MCP add_table with --allow-table-urls fetches public addresses only; --allow-private-table-urls lifts that', async () => {
    await mcp(['--allow-table-urls'], async (c) => {
      for (const url of [
        `http://127.0.0.1:${port}/metrics`,
        `http://localhost:${port}/metrics`,
        'http://169.254.169.254/latest/meta-data/iam',
        `http://[::ffff:127.0.0.1]:${port}/x.csv`,
      ]) {
        const res = await c.callTool({ name: 'add_table', arguments: { name: 'remote', url, format: 'csv' } });
        expect(res.isError, url).toBe(true);
        expect((res.content as Array<{ text: string }>)[0]!.text).toMatch(/^error: DOWNLOAD_BLOCKED: Refused to fetch/);
      }
    });
    expect(requests).toEqual([]);
    await mcp(['--allow-table-urls', '--allow-private-table-urls'], async (c) => {
      const res = await c.callTool({
        name: 'add_table',
        arguments: { name: 'remote', url: `http://127.0.0.1:${port}/t.csv`, format: 'csv' },
      });
      expect(res.isError).toBeFalsy();
    });
    expect(requests).toEqual(['127.0.0.1/t.csv']);
  });

  it('sbirtools serve (MCP over HTTP) applies the same policy', async () => {
    const key = 'key-ssrf-tables-0123456789';
    requests.length = 0;
    for (const [flags, blockedExpected] of [
      [['--allow-table-urls'], true],
      [['--allow-table-urls', '--allow-private-table-urls'], false],
    ] as const) {
      const serve = await startServe(
        ['--quiet', ...flags],
        { SBIRTOOLS_API_KEYS: key },
        { cacheDir: join(dir, `serve-${flags.length}`) },
      );
      const c = new Client({ name: 'ssrf-serve', version: '1.0.0' });
      try {
        await c.connect(
          new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), {
            requestInit: { headers: { authorization: `Bearer ${key}` } },
          }),
        );
        const res = await c.callTool({
          name: 'add_table',
          arguments: { name: 'remote', url: `http://localhost:${port}/serve.csv`, format: 'csv' },
        });
        const text = (res.content as Array<{ text: string }>)[0]!.text;
        if (blockedExpected) expect(text).toMatch(/^error: DOWNLOAD_BLOCKED: Refused to fetch .*localhost resolves to/);
        else expect(res.isError, text).toBeFalsy();
      } finally {
        await c.close();
        await stop(serve);
      }
      expect(requests).toEqual(blockedExpected ? [] : ['127.0.0.1/serve.csv']);
      requests.length = 0;
    }
  }, 120_000);
});
