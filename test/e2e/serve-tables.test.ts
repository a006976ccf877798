import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, startServe, stop, type ServeProcess } from './helpers/serve.js';

const KEY_A = 'key-a-tables-0123456789';
const KEY_B = 'key-b-tables-0123456789';

type ToolResult = { content: Array<{ type: string; text: string }>; isError?: boolean };

async function client(base: string, key: string): Promise<Client> {
  const c = new Client({ name: 'serve-tables-test', version: '1.0.0' });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return c;
}

const text = (r: unknown) => (r as ToolResult).content.map((c) => c.text).join('\n');
const call = async (c: Client, name: string, args: Record<string, unknown>) =>
  text(await c.callTool({ name, arguments: args }));

// add_table through `sbirtools serve`: every MCP request gets a fresh server, so the table must live
// in the shared store (per API key), reach every replica, and restart sessions built without it.
describe('sbirtools serve: add_table keeps the table for the key, on every replica', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let r1: ServeProcess;
  let r2: ServeProcess;
  let cacheDir: string;

  beforeAll(async () => {
    redis = await startRedis();
    cacheDir = mkdtempSync(join(tmpdir(), 'sbirtools-serve-tables-'));
    const env = { SBIRTOOLS_API_KEYS: `${KEY_A},${KEY_B}` };
    [r1, r2] = await Promise.all([
      startServe(['--redis', redis.url, '--quiet', '--max-upload-bytes', '4000'], env, { cacheDir }),
      startServe(['--redis', redis.url, '--quiet', '--max-upload-bytes', '4000'], env, { cacheDir }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([stop(r1), stop(r2)]);
    await redis?.stop();
    if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
  });

  it('a table added on one replica answers one-shot and session runs on the other, in later requests', async () => {
    const a1 = await client(r1.url, KEY_A);
    const a2 = await client(r2.url, KEY_A);
    expect(await call(a1, 'add_table', { name: 'portfolio', content_text: 'UEI,Budget\nA1,5\nB2,7\nC3,\n' })).toMatch(
      /Added table portfolio \(3 rows\)/,
    );
    // another request, another replica: the table is there, typed as uploaded
    expect(await call(a2, 'run_analysis', { code: 'portfolio.numRows() * 100 + sum(portfolio, "Budget")' })).toMatch(
      /\b312\b/,
    );
    expect(await call(a2, 'run_analysis', { code: 'portfolio.array("UEI").join("|")', session_id: 'p' })).toMatch(
      /A1\|B2\|C3/,
    );
    expect(await call(a1, 'run_analysis', { code: 'const kept = portfolio.numRows(); kept', session_id: 'p' })).toMatch(
      /\b3\b/,
    );
    // the tool description and the resources list it, for a later connection to either replica
    const fresh = await client(r2.url, KEY_A);
    const run = (await fresh.listTools()).tools.find((t) => t.name === 'run_analysis')!;
    expect(run.description).toMatch(/portfolio \(3 rows\): UEI \(string\), Budget \(integer\)/);
    const resources = (await fresh.listResources()).resources.map((r) => r.uri);
    expect(resources).toContain('sbirtools://tables/portfolio');
    const read = await fresh.readResource({ uri: 'sbirtools://tables/portfolio' });
    expect(JSON.stringify(read.contents)).toMatch(/Budget \| integer/);
    await Promise.all([a1.close(), a2.close(), fresh.close()]);
  }, 120_000);

  it('replacing a table restarts the sessions that ran with the old one, and says so', async () => {
    const a = await client(r1.url, KEY_A);
    expect(await call(a, 'run_analysis', { code: 'const before = 41; before', session_id: 'q' })).toMatch(/\b41\b/);
    expect(
      await call(a, 'add_table', { name: 'portfolio', content_text: '[{"UEI":"Z9","Budget":1.5}]', format: 'json' }),
    ).toMatch(/Added table portfolio \(1 rows\)/);
    const after = await call(a, 'run_analysis', { code: 'typeof before + " " + portfolio.numRows()', session_id: 'q' });
    expect(after).toMatch(/session was reset .*tables were added/s);
    expect(after).toMatch(/undefined 1/);
    // the other replica rebuilds the session from the new history, with the new table
    const b = await client(r2.url, KEY_A);
    expect(await call(b, 'run_analysis', { code: 'portfolio.get("Budget", 0)', session_id: 'q' })).toMatch(/\b1\.5\b/);
    await Promise.all([a.close(), b.close()]);
  }, 120_000);

  it("another key never sees a key's tables", async () => {
    const b = await client(r2.url, KEY_B);
    expect(await call(b, 'run_analysis', { code: 'typeof portfolio' })).toMatch(/undefined/);
    expect((await b.listResources()).resources.map((r) => r.uri)).not.toContain('sbirtools://tables/portfolio');
    const run = (await b.listTools()).tools.find((t) => t.name === 'run_analysis')!;
    expect(run.description).not.toMatch(/portfolio/);
    await b.close();
  }, 60_000);

  it('refuses urls (the server fetches nothing a model names unless --allow-table-urls) and uploads over the cap', async () => {
    const a = await client(r1.url, KEY_A);
    const url = await a.callTool({ name: 'add_table', arguments: { name: 'remote', url: 'http://127.0.0.1:9/t.csv' } });
    expect((url as ToolResult).isError).toBe(true);
    expect(text(url)).toMatch(/DOWNLOAD_BAD_URL.*does not download/s);
    const big = await a.callTool({
      name: 'add_table',
      arguments: { name: 'big', content_text: `a,b\n${'1,2\n'.repeat(2000)}` },
    });
    expect((big as ToolResult).isError).toBe(true);
    expect(text(big)).toMatch(/DATA_TOO_LARGE.*4000-byte limit/s);
    expect(await call(a, 'run_analysis', { code: 'typeof remote + typeof big' })).toMatch(/undefinedundefined/);
    await a.close();
  }, 60_000);
});
