import { request as httpRequest } from 'node:http';
import { Ajv } from 'ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ProgressNotification } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, stop, type ServeProcess } from './helpers/serve.js';

const KEY = 'agents-key-aaaaaaaaaaaaaaaaaaaa';
type Text = Array<{ type: string; text?: string }>;

async function connect(base: string, headers: Record<string, string> = {}): Promise<Client> {
  const c = new Client({ name: 'e2e-agents', version: '1.0.0' });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${KEY}`, ...headers } },
    }),
  );
  return c;
}

/** A raw JSON-RPC POST to /mcp (no SDK): for the 2026-07-28 revision, which the SDK client does not speak. */
async function rpc(
  base: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: any }> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: await res.json() };
}

/** Runs executing on the server now (its /metrics gauge): watching it takes no run slot. */
async function activeRuns(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${KEY}` } })).text();
  return Number(/^sbirtools_active_runs (\d+)/m.exec(text)?.[1] ?? NaN);
}

/** One REST run: 200 when the key's one slot is free. */
async function runOnce(base: string): Promise<number> {
  return (
    await fetch(`${base}/v1/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ code: '1' }),
    })
  ).status;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// Runs last up to 10 minutes here: only a cancel that works frees the one run slot in the test's time.
describe('MCP over Streamable HTTP, as agent clients use it', () => {
  let s: ServeProcess;
  let client: Client;

  beforeAll(async () => {
    s = await startServe(
      ['--quiet', '--max-concurrent-per-key', '1', '--runs-per-minute', '100000', '--timeout-ms', '600000'],
      { SBIRTOOLS_API_KEYS: KEY },
    );
    client = await connect(s.url);
  });
  afterAll(async () => {
    await client?.close();
    await stop(s);
  });

  it('lists every tool annotated, in a stable order, run_analysis with its output schema and result size', async () => {
    const first = await client.listTools();
    const again = await (await connect(s.url)).listTools();
    expect(first.tools.map((t) => t.name)).toEqual(['run_analysis', 'describe_dataset', 'add_table']);
    expect(again.tools.map((t) => t.name)).toEqual(first.tools.map((t) => t.name));
    for (const t of first.tools) {
      expect(Object.keys(t.annotations ?? {}).sort()).toEqual([
        'destructiveHint',
        'idempotentHint',
        'openWorldHint',
        'readOnlyHint',
        'title',
      ]);
    }
    const run = first.tools[0]!;
    expect(run.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    expect(run.outputSchema).toMatchObject({ type: 'object' });
    expect(run._meta).toEqual({ 'anthropic/maxResultSizeChars': 200_000 });
  });

  it('answers a large table within the text budget, with structured content that validates against the output schema', async () => {
    const { tools } = await client.listTools();
    const validate = new Ajv({ strict: false }).compile(tools[0]!.outputSchema!);
    const res = await client.callTool({ name: 'run_analysis', arguments: { code: 'award_data' } });
    const text = (res.content as Text)[0]!.text!;
    expect(text.length).toBeLessThanOrEqual(17_000);
    expect(text).toMatch(/table: [\d,]+ rows × \d+ columns/);
    expect(text).toMatch(/row_offset: \d+/);
    expect(validate(res.structuredContent)).toBe(true);
    expect(JSON.stringify(res.structuredContent).length).toBeLessThanOrEqual(256 * 1024);
    const paged = await client.callTool({
      name: 'run_analysis',
      arguments: { code: 'award_data', row_offset: 40, max_chars: 3000 },
    });
    const pagedText = (paged.content as Text)[0]!.text!;
    expect(pagedText.length).toBeLessThanOrEqual(4000);
    expect(pagedText).toMatch(/Rows 41–\d+ of/);
  });

  it("takes the connection's budget from the sbirtools-max-result-chars header, and refuses a bad one", async () => {
    const small = await connect(s.url, { 'sbirtools-max-result-chars': '2000' });
    const res = await small.callTool({ name: 'run_analysis', arguments: { code: 'award_data' } });
    expect((res.content as Text)[0]!.text!.length).toBeLessThanOrEqual(3000);
    await small.close();
    const bad = await rpc(
      s.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      { 'sbirtools-max-result-chars': '12' },
    );
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/sbirtools-max-result-chars header.*from 1000 to 200000/);
  });

  it('a client that aborts its call stops the run and frees the slot; the cancelled cell is never replayed', async () => {
    await client.callTool({ name: 'run_analysis', arguments: { code: 'let before = 1', session_id: 'cancel-me' } });
    const abort = new AbortController();
    let progressed = false;
    // the first progress notification says the run is under way
    const call = client.callTool(
      { name: 'run_analysis', arguments: { code: 'let marker = 1; while (true) {}', session_id: 'cancel-me' } },
      undefined,
      { signal: abort.signal, timeout: 900_000, onprogress: () => (progressed = true) },
    );
    call.catch(() => undefined);
    await until(async () => progressed, 'the run to report progress');
    abort.abort();
    await expect(call).rejects.toThrow();
    // the key has one run slot and the run a 10-minute deadline: only the cancel frees the slot
    await until(async () => (await runOnce(s.url)) === 200, 'the slot to be free');
    const after = await client.callTool({
      name: 'run_analysis',
      arguments: { code: '[typeof before, typeof marker]', session_id: 'cancel-me' },
    });
    const r = after.structuredContent as { value: unknown; sessionReset?: boolean };
    expect(r.sessionReset).toBe(true);
    expect(r.value).toEqual(['undefined', 'undefined']);
  });

  it('a dropped connection stops the run (raw HTTP, the socket destroyed)', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'run_analysis', arguments: { code: 'while (true) {}' } },
    });
    const req = httpRequest(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${KEY}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'content-length': Buffer.byteLength(body),
      },
    });
    req.on('error', () => undefined);
    req.end(body);
    await until(async () => (await activeRuns(s.url)) === 1, 'the run to start');
    req.destroy();
    await until(async () => (await activeRuns(s.url)) === 0, 'the run to stop');
    expect(await runOnce(s.url)).toBe(200);
  });

  it('sends progress notifications while a long run lasts, when the call carries a progress token', async () => {
    const seen: ProgressNotification['params'][] = [];
    const res = await client.callTool(
      {
        name: 'run_analysis',
        arguments: { code: 'print("started"); const t = Date.now(); while (Date.now() - t < 3500) {} 42' },
      },
      undefined,
      { onprogress: (p) => seen.push(p), timeout: 120_000 },
    );
    expect((res.structuredContent as { value: unknown }).value).toBe(42);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.map((p) => p.progress)).toEqual([...seen.map((p) => p.progress)].sort((a, b) => a - b));
    // the first notification carries what the code printed so far; later ones say it still runs
    expect(seen[0]!.message).toBe('started\n');
    expect(seen.at(-1)!.message).toMatch(/^running for \d+ s$/);
  });

  it('streams POST /v1/run as Server-Sent Events: stdout as printed, progress, then the result', async () => {
    const res = await fetch(`${s.url}/v1/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, accept: 'text/event-stream' },
      body: JSON.stringify({
        code: 'print("first"); let t = Date.now(); while (Date.now() - t < 2500) {} print("second"); 7',
      }),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events: Array<{ event: string; data: any }> = [];
    let buffer = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let at: number;
      while ((at = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const name = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (name && data) events.push({ event: name, data: JSON.parse(data) });
      }
    }
    const names = events.map((e) => e.event);
    expect(names.at(-1)).toBe('result');
    expect(events.at(-1)!.data).toMatchObject({
      status: 200,
      codeRan: true,
      result: { ok: true, value: 7, stdout: 'first\nsecond\n' },
    });
    // "first" arrived before the run's progress events, "second" after them: it was streamed, not sent with the result
    const first = names.indexOf('stdout');
    expect(events[first]!.data.text).toBe('first\n');
    expect(names.indexOf('progress')).toBeGreaterThan(first);
    const second = names.lastIndexOf('stdout');
    expect(events[second]!.data.text).toBe('second\n');
    expect(second).toBeGreaterThan(names.indexOf('progress'));
  });

  it('applies the output cap to the stream', async () => {
    // the strict preset caps output at 64 KiB
    const capped = await startServe(['--quiet', '--preset', 'strict'], { SBIRTOOLS_API_KEYS: KEY });
    try {
      const res = await fetch(`${capped.url}/v1/run`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, accept: 'text/event-stream' },
        body: JSON.stringify({ code: 'for (let i = 0; i < 30000; i++) print("line " + i)' }),
      });
      const text = await res.text();
      const streamed = [...text.matchAll(/^event: stdout\ndata: (.*)$/gm)]
        .map((m) => JSON.parse(m[1]!).text as string)
        .join('');
      expect(Buffer.byteLength(streamed)).toBeGreaterThan(60_000);
      expect(Buffer.byteLength(streamed)).toBeLessThanOrEqual(65_536 + 100);
      expect(streamed).toMatch(/output truncated: limit of 65536 bytes/);
      expect(streamed).not.toContain('line 29999');
      expect(text).toMatch(/event: result\ndata: .*"truncated":\{"stdout":true/);
    } finally {
      await stop(capped);
    }
  });

  it('serves the stateless 2026-07-28 revision: server/discover and tools without initialize', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const discover = await rpc(
      s.url,
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } },
      { 'mcp-protocol-version': '2026-07-28' },
    );
    expect(discover.status).toBe(200);
    expect(discover.json.result.supportedVersions).toContain('2026-07-28');
    expect(discover.json.result.supportedVersions).toContain('2025-11-25');
    expect(discover.json.result.capabilities.tools).toBeDefined();
    expect(discover.json.result.serverInfo.name).toBe('sbirtools');
    expect(discover.json.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    const list = await rpc(
      s.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta } },
      { 'mcp-protocol-version': '2026-07-28' },
    );
    expect(list.headers.get('mcp-protocol-version')).toBe('2026-07-28');
    expect(list.json.result.tools.map((t: { name: string }) => t.name)).toEqual([
      'run_analysis',
      'describe_dataset',
      'add_table',
    ]);
    const call = await rpc(
      s.url,
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'run_analysis', arguments: { code: '6 * 7' }, _meta: meta },
      },
      { 'mcp-protocol-version': '2026-07-28' },
    );
    expect(call.json.result.structuredContent.value).toBe(42);
    expect(call.json.result.resultType).toBe('complete');
    expect(call.json.result.ttlMs).toBeUndefined();
    expect(list.json.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    // a 2025-11-25 answer stays as it was
    const legacy = await rpc(s.url, { jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} });
    expect(legacy.json.result.resultType).toBeUndefined();
    const unknown = await rpc(s.url, {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/list',
      params: { _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2031-01-01' } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.data.supported).toContain('2026-07-28');
    const mismatch = await rpc(
      s.url,
      { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: meta } },
      { 'mcp-protocol-version': '2025-11-25' },
    );
    expect(mismatch.status).toBe(400);
  });

  it('answers server/discover to a 2025-11-25 client too, and accepts logging/setLevel', async () => {
    const discover = await rpc(s.url, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} });
    expect(discover.json.result.supportedVersions[0]).toBe('2026-07-28');
    await expect(client.setLoggingLevel('info')).resolves.toBeDefined();
  });
});
