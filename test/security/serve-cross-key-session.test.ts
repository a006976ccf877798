import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, stop, type ServeProcess } from '../e2e/helpers/serve.js';

const A = 'tenant-a-key-0123456789';
const B = 'tenant-b-key-0123456789';

// Two tenants on one server: B knows (or guesses) A's session id and Idempotency-Key and tries to
// read A's variables, list or close A's sessions, or get A's stored answer.
describe("attack: one API key reaching another key's sessions", () => {
  let s: ServeProcess;
  const post = (key: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${s.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    s = await startServe(['--quiet'], { SBIRTOOLS_API_KEYS: `${A},${B}` });
  });
  afterAll(async () => {
    await stop(s);
  });

  it('REST: B cannot run in, list, or close A’s session, nor replay A’s idempotent answer', async () => {
    const { session_id: id } = (await (await post(A, '/v1/sessions', {})).json()) as { session_id: string };
    await post(A, '/v1/run', { code: 'var secret = "A-SECRET-7731"', session_id: id });
    const answerOfA = await post(A, '/v1/run', { code: 'secret', session_id: id }, { 'idempotency-key': 'shared-key' });
    expect(await answerOfA.text()).toContain('A-SECRET-7731');

    const run = await post(B, '/v1/run', { code: 'secret', session_id: id });
    expect(run.status).toBe(404);
    expect(await run.text()).not.toContain('A-SECRET');
    const replay = await post(B, '/v1/run', { code: 'secret', session_id: id }, { 'idempotency-key': 'shared-key' });
    expect(replay.headers.get('idempotent-replayed')).toBeNull();
    expect(await replay.text()).not.toContain('A-SECRET');
    const list = await (await fetch(`${s.url}/v1/sessions`, { headers: { authorization: `Bearer ${B}` } })).text();
    expect(list).not.toContain(id);
    expect(
      (await fetch(`${s.url}/v1/sessions/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${B}` } }))
        .status,
    ).toBe(404);
    // A's session is intact
    expect(await (await post(A, '/v1/run', { code: 'secret', session_id: id })).text()).toContain('A-SECRET-7731');
  });

  it('MCP: the same session_id name under B is B’s own empty session', async () => {
    const connect = async (key: string) => {
      const c = new Client({ name: 'tenant', version: '1' });
      await c.connect(
        new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${key}` } },
        }),
      );
      return c;
    };
    const a = await connect(A);
    await a.callTool({ name: 'run_analysis', arguments: { code: 'var token = "A-TOKEN-5521"', session_id: 'work' } });
    await a.close();
    const b = await connect(B);
    const r = await b.callTool({
      name: 'run_analysis',
      arguments: { code: 'typeof token === "undefined" ? "nothing" : token', session_id: 'work' },
    });
    expect(JSON.stringify(r)).not.toContain('A-TOKEN');
    expect((r.structuredContent as { value: unknown }).value).toBe('nothing');
    await b.close();
  });
});
