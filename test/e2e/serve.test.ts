import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunResultSchema } from '../../src/index.js';
import { startServe, stop, type ServeProcess } from './helpers/serve.js';
import { waitFor } from '../helpers/waitFor.js';

const KEY_A = 'key-a-0123456789abcdef';
const KEY_B = 'key-b-0123456789abcdef';
const auth = (key: string) => ({ authorization: `Bearer ${key}` });

/** True once the replica's holder pool executes a run (the sbirtools_active_runs gauge). */
async function activeRuns(base: string, headers: Record<string, string> = {}): Promise<boolean> {
  const text = await (await fetch(`${base}/metrics`, { headers })).text();
  return /^sbirtools_active_runs [1-9]/m.test(text);
}

async function post(
  base: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('sbirtools serve: REST, auth, limits and MCP over Streamable HTTP', () => {
  let s: ServeProcess;

  beforeAll(async () => {
    s = await startServe(['--max-body-bytes', '4000', '--max-concurrent-per-key', '2'], {
      SBIRTOOLS_API_KEYS: `${KEY_A},${KEY_B}`,
    });
  });
  afterAll(async () => {
    await stop(s);
  });

  it('health checks need no key; everything else does (401 without or with a wrong key)', async () => {
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${s.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, checks: { accepting: true, store: true, holder: true } });
    const none = await post(s.url, '/v1/run', { code: '1' });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await none.json()).error.type).toBe('UNAUTHORIZED');
    expect((await post(s.url, '/v1/run', { code: '1' }, auth('key-c-0123456789abcdef'))).status).toBe(401);
    expect((await post(s.url, '/v1/run', { code: '1' }, { authorization: `Basic ${KEY_A}` })).status).toBe(401);
    expect((await fetch(`${s.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${s.url}/v1/sessions`)).status).toBe(401);
  });

  it('POST /v1/run answers the RunResult; a guest error is a 200 result; bad JSON is 400', async () => {
    const ok = await post(s.url, '/v1/run', { code: 'print("hi"); 6 * 7' }, auth(KEY_A));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('sbirtools-code-ran')).toBe('true');
    expect(RunResultSchema.parse(await ok.json())).toMatchObject({ ok: true, value: 42, stdout: 'hi\n' });
    const guest = await post(s.url, '/v1/run', { code: 'null.x' }, auth(KEY_A));
    expect(guest.status).toBe(200);
    expect((await guest.json()).error.type).toBe('RUNTIME_ERROR');
    const syntax = await post(s.url, '/v1/run', { code: 'let = ;' }, auth(KEY_A));
    expect(syntax.headers.get('sbirtools-code-ran')).toBe('false');
    expect((await post(s.url, '/v1/run', '{"code":', auth(KEY_A))).status).toBe(400);
    const missing = await post(s.url, '/v1/run', { source: '1' }, auth(KEY_A));
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.message).toMatch(/no `code`/);
  });

  it("POST /v1/run gives a saved file's bytes as base64, like createHandler (one mapping)", async () => {
    const res = await post(s.url, '/v1/run', { code: "to_csv(aq.table({ a: [1, 2] }), 'a.csv'); 1" }, auth(KEY_A));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { files: unknown[] };
    expect(body.files).toEqual([
      { name: 'a.csv', mediaType: 'text/csv', size: 6, base64: Buffer.from('a\n1\n2\n').toString('base64') },
    ]);
  });

  it('a body over the cap is 413 before anything runs', async () => {
    const res = await post(s.url, '/v1/run', { code: `"${'x'.repeat(5000)}".length` }, auth(KEY_A));
    expect(res.status).toBe(413);
    expect((await res.json()).error.type).toBe('REQUEST_TOO_LARGE');
  });

  it('sessions keep state, belong to one key, and another key never reaches them', async () => {
    const created = await post(s.url, '/v1/sessions', {}, auth(KEY_A));
    expect(created.status).toBe(201);
    const { session_id: id } = (await created.json()) as { session_id: string };
    // a value no session id, message or hint can contain by chance (ids are hex UUIDs)
    await post(s.url, '/v1/run', { code: 'const secret = "zq-secret-value"', session_id: id }, auth(KEY_A));
    const again = await post(s.url, '/v1/run', { code: 'secret + "!"', session_id: id }, auth(KEY_A));
    expect((await again.json()).value).toBe('zq-secret-value!');
    const listA = await (await fetch(`${s.url}/v1/sessions`, { headers: auth(KEY_A) })).json();
    expect(listA.sessions).toContainEqual({ session_id: id });
    // key B: the id is not in its space (404, the code never started), not listed, not deletable
    const stolen = await post(s.url, '/v1/run', { code: 'secret', session_id: id }, auth(KEY_B));
    expect(stolen.status).toBe(404);
    expect(stolen.headers.get('sbirtools-code-ran')).toBe('false');
    expect(JSON.stringify(await stolen.json())).not.toContain('zq-secret');
    const listB = await (await fetch(`${s.url}/v1/sessions`, { headers: auth(KEY_B) })).json();
    expect(listB.sessions).not.toContainEqual({ session_id: id });
    expect((await fetch(`${s.url}/v1/sessions/${id}`, { method: 'DELETE', headers: auth(KEY_B) })).status).toBe(404);
    // still A's, then closed by A
    expect((await (await post(s.url, '/v1/run', { code: 'secret', session_id: id }, auth(KEY_A))).json()).value).toBe(
      'zq-secret-value',
    );
    expect((await fetch(`${s.url}/v1/sessions/${id}`, { method: 'DELETE', headers: auth(KEY_A) })).status).toBe(204);
    expect((await post(s.url, '/v1/run', { code: 'secret', session_id: id }, auth(KEY_A))).status).toBe(404);
  });

  it('an Idempotency-Key retry returns the first answer without running again', async () => {
    const { session_id: id } = (await (await post(s.url, '/v1/sessions', {}, auth(KEY_A))).json()) as {
      session_id: string;
    };
    await post(s.url, '/v1/run', { code: 'var n = 0', session_id: id }, auth(KEY_A));
    const body = { code: 'n = n + 1', session_id: id };
    const first = await post(s.url, '/v1/run', body, { ...auth(KEY_A), 'idempotency-key': 'inc-1' });
    const retry = await post(s.url, '/v1/run', body, { ...auth(KEY_A), 'idempotency-key': 'inc-1' });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(await first.json());
    expect((await (await post(s.url, '/v1/run', { code: 'n', session_id: id }, auth(KEY_A))).json()).value).toBe(1);
    const reused = await post(
      s.url,
      '/v1/run',
      { code: 'n = n + 100', session_id: id },
      { ...auth(KEY_A), 'idempotency-key': 'inc-1' },
    );
    expect(reused.status).toBe(422);
    // the same key string of another API key is another request
    expect(
      (await post(s.url, '/v1/run', { code: '5' }, { ...auth(KEY_B), 'idempotency-key': 'inc-1' })).headers.get(
        'idempotent-replayed',
      ),
    ).toBeNull();
  });

  it('a client that hangs up during an idempotent run gets the finished answer on retry; the code ran once', async () => {
    const { session_id: id } = (await (await post(s.url, '/v1/sessions', {}, auth(KEY_A))).json()) as {
      session_id: string;
    };
    await post(s.url, '/v1/run', { code: 'var hits = 0', session_id: id }, auth(KEY_A));
    const body = JSON.stringify({
      code: 'hits = hits + 1; let spin = 0; for (let k = 0; k < 4e8; k++) spin += k & 1; hits',
      session_id: id,
    });
    const headers = { ...auth(KEY_A), 'content-type': 'application/json', 'idempotency-key': 'slow-1' };
    const abort = new AbortController();
    const first = fetch(`${s.url}/v1/run`, { method: 'POST', headers, body, signal: abort.signal });
    first.catch(() => undefined);
    await waitFor(() => activeRuns(s.url, auth(KEY_A)), { what: 'the run to start' });
    abort.abort();
    await expect(first).rejects.toThrow();
    const retry = await fetch(`${s.url}/v1/run`, { method: 'POST', headers, body });
    expect(retry.status).toBe(200);
    expect((await retry.json()).value).toBe(1);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await (await post(s.url, '/v1/run', { code: 'hits', session_id: id }, auth(KEY_A))).json()).value).toBe(1);
  });

  it('over the per-key concurrency limit: 429 with Retry-After, other keys unaffected', async () => {
    const slow = { code: 'const t = Date.now(); while (Date.now() - t < 1500) {} 1' };
    const runs = [0, 1, 2].map(() => post(s.url, '/v1/run', slow, auth(KEY_A)));
    // the third run is refused at once: once it answers, KEY_A is saturated
    await Promise.race(runs.map(async (p) => (await p).status === 429 || new Promise(() => undefined)));
    const other = await post(s.url, '/v1/run', { code: '2' }, auth(KEY_B));
    const statuses = await Promise.all(runs.map(async (p) => (await p).status));
    expect(statuses.filter((x) => x === 429)).toHaveLength(1);
    const limited = (await Promise.all(runs)).find((r) => r.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(other.status).toBe(200);
  });

  it('echoes the request id and logs one JSON line per request', async () => {
    const res = await fetch(`${s.url}/healthz`, { headers: { 'x-request-id': 'trace-abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-abc-123');
    expect((await fetch(`${s.url}/healthz`)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const line = await waitFor(
      () =>
        s
          .stdout()
          .split('\n')
          .find((l) => l.includes('trace-abc-123')),
      { what: 'the log line' },
    );
    expect(JSON.parse(line)).toMatchObject({
      requestId: 'trace-abc-123',
      method: 'GET',
      path: '/healthz',
      status: 200,
    });
    // keys never reach the log
    expect(s.stdout()).not.toContain(KEY_A);
  });

  it('exposes Prometheus metrics', async () => {
    const text = await (await fetch(`${s.url}/metrics`, { headers: auth(KEY_A) })).text();
    expect(text).toMatch(/sbirtools_runs_total\{outcome="ok",error_type=""\} \d+/);
    expect(text).toMatch(/sbirtools_run_duration_seconds_bucket/);
    expect(text).toMatch(/sbirtools_open_sessions \d+/);
    expect(text).toMatch(/sbirtools_queue_depth \d+/);
    expect(text).toMatch(/sbirtools_holder_restarts \d+/);
    expect(text).toMatch(/sbirtools_process_resident_memory_bytes \d+/);
    expect(text).toMatch(/sbirtools_rate_limited_total\{reason="concurrency"\} [1-9]/);
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin; no CORS headers by default', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: s.port, path: '/healthz', headers: { host: 'attacker.example:80' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(421);
    const origin = await post(s.url, '/v1/run', { code: '1' }, { ...auth(KEY_A), origin: 'https://attacker.example' });
    expect(origin.status).toBe(403);
    expect(origin.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('an MCP client over Streamable HTTP lists tools, runs code, and resumes its session after reconnecting', async () => {
    const connect = async (key: string) => {
      const client = new Client({ name: 'e2e-http', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: auth(key) } }),
      );
      return client;
    };
    const first = await connect(KEY_A);
    const { tools } = await first.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['run_analysis', 'describe_dataset']));
    const res = await first.callTool({
      name: 'run_analysis',
      arguments: { code: 'const base = award_data.numRows(); base > 0', session_id: 'mcp-s1' },
    });
    expect(RunResultSchema.parse(res.structuredContent).value).toBe(true);
    await first.close();
    const second = await connect(KEY_A);
    const again = await second.callTool({
      name: 'run_analysis',
      arguments: { code: 'typeof base', session_id: 'mcp-s1' },
    });
    expect(RunResultSchema.parse(again.structuredContent).value).toBe('number');
    await second.close();
    // the same session name under key B is B's own (empty) session
    const other = await connect(KEY_B);
    const b = await other.callTool({ name: 'run_analysis', arguments: { code: 'typeof base', session_id: 'mcp-s1' } });
    expect(RunResultSchema.parse(b.structuredContent).value).toBe('undefined');
    await other.close();
    await expect(connect('key-c-0123456789abcdef')).rejects.toThrow(/UNAUTHORIZED/);
    // stateless: no server-initiated stream to open, no MCP session to delete
    const get = await fetch(`${s.url}/mcp`, { headers: { ...auth(KEY_A), accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await fetch(`${s.url}/mcp`, { method: 'DELETE', headers: auth(KEY_A) })).status).toBe(405);
  });
});

describe('sbirtools serve: runs per minute and SIGTERM drain', () => {
  it('over the runs-per-minute limit: 429 with Retry-After', async () => {
    const s = await startServe(['--runs-per-minute', '2', '--quiet']);
    try {
      expect((await post(s.url, '/v1/run', { code: '1' })).status).toBe(200);
      expect((await post(s.url, '/v1/run', { code: '1' })).status).toBe(200);
      const third = await post(s.url, '/v1/run', { code: '1' });
      expect(third.status).toBe(429);
      const retry = Number(third.headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      expect(third.headers.get('sbirtools-code-ran')).toBe('false');
    } finally {
      await stop(s);
    }
  });

  it('refuses a non-loopback host without API keys', async () => {
    await expect(startServe(['--host', '0.0.0.0'])).rejects.toThrow(/needs API keys/);
  });

  it('on SIGTERM, a run in flight finishes and answers, new work is refused, and the process exits 0', async () => {
    const s = await startServe(['--quiet', '--grace-ms', '20000']);
    const inFlight = post(s.url, '/v1/run', {
      code: 'const t = Date.now(); while (Date.now() - t < 2000) {} "finished"',
    });
    await waitFor(() => activeRuns(s.url), { what: 'the run to start' });
    s.proc.kill('SIGTERM');
    await waitFor(() => /draining/.test(s.stderr()), { what: 'the server to start draining' });
    const late = await post(s.url, '/v1/run', { code: '1' }).then(
      (r) => r.status,
      () => 'refused',
    );
    expect([503, 'refused']).toContain(late);
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect((await res.json()).value).toBe('finished');
    expect(await s.exited).toBe(0);
    expect(s.stderr()).toMatch(/draining[\s\S]*stopped/);
  });
});
