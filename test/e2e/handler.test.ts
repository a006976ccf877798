import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../../src/adapters/handler.js';
import { toNodeListener } from '../../src/adapters/nodeListener.js';
import { createPool, RunResultSchema, shutdown } from '../../src/index.js';

let server: Server;
let url: string;

async function listen(handler: (r: Request) => Promise<Response>): Promise<{ server: Server; url: string }> {
  const s = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { server: s, url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/` };
}

beforeAll(async () => {
  ({ server, url } = await listen(createHandler({ maxBodyBytes: 4096 })));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await shutdown();
});

const post = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(url, { method: 'POST', body, headers });

describe('createHandler behind node:http', () => {
  it('POST { code } answers the RunResult', async () => {
    const res = await post(JSON.stringify({ code: 'print("hi"); 6 * 7' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const result = RunResultSchema.parse(await res.json());
    expect(result).toMatchObject({ ok: true, stdout: 'hi\n', value: 42 });
  });

  it('a guest error is a 200 RunResult with ok: false', async () => {
    const result = RunResultSchema.parse(await (await post(JSON.stringify({ code: 'null.x' }))).json());
    expect(result.ok).toBe(false);
    expect(result.error?.type).toBe('RUNTIME_ERROR');
  });

  it('is stateless: nothing carries over between requests', async () => {
    await post(JSON.stringify({ code: 'globalThis.leak = 1' }));
    const result = RunResultSchema.parse(await (await post(JSON.stringify({ code: 'typeof leak' }))).json());
    expect(result.value).toBe('undefined');
  });

  it('answers 405, 413 and 400 with a JSON error and no stack', async () => {
    const cases: Array<[Promise<Response>, number, string, RegExp]> = [
      [fetch(url), 405, 'METHOD_NOT_ALLOWED', /Use POST/],
      [post(JSON.stringify({ code: 'x'.repeat(5000) })), 413, 'REQUEST_TOO_LARGE', /over 4096 bytes/],
      [post('{"code": '), 400, 'VALIDATION_ERROR', /not valid JSON/],
      [post('{"script": "1"}'), 400, 'VALIDATION_ERROR', /no `code`/],
      [post('{"code": 42}'), 400, 'VALIDATION_ERROR', /`code` to be a string/],
    ];
    for (const [pending, status, type, message] of cases) {
      const res = await pending;
      expect(res.status).toBe(status);
      const text = await res.text();
      const body = JSON.parse(text) as { error: { type: string; message: string } };
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error.type).toBe(type);
      expect(body.error.message).toMatch(message);
      expect(text).not.toMatch(/\n\s+at |node_modules|\/src\//);
    }
    expect((await fetch(url)).headers.get('allow')).toBe('POST');
  });

  it('a streamed body over the limit (no Content-Length) is cut off with 413', async () => {
    const chunks = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode('x'.repeat(1000)));
        c.close();
      },
    });
    const res = await fetch(url, { method: 'POST', body: chunks, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('with a pool: a full queue answers 503 with Retry-After and the QUEUE_FULL result', async () => {
    const pool = createPool({ size: 1, maxConcurrent: 1, maxQueue: 0 });
    const busy = await listen(createHandler({ pool }));
    try {
      const slow = fetch(busy.url, {
        method: 'POST',
        body: JSON.stringify({ code: 'const t = Date.now(); while (Date.now() - t < 3000) {} 1' }),
      });
      for (let i = 0; i < 400 && pool.stats().active === 0; i++) await new Promise((r) => setTimeout(r, 25));
      const refused = await fetch(busy.url, { method: 'POST', body: JSON.stringify({ code: '1' }) });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(RunResultSchema.parse(await refused.json()).error?.type).toBe('QUEUE_FULL');
      expect((await slow).status).toBe(200);
    } finally {
      await new Promise((resolve) => busy.server.close(resolve));
      await pool.close();
    }
  });

  it('a host failure is a 500 without details; onError gets the error', async () => {
    const pool = createPool({ size: 1 });
    await pool.close();
    const seen: unknown[] = [];
    const broken = await listen(createHandler({ pool, onError: (e) => seen.push(e) }));
    try {
      const res = await fetch(broken.url, { method: 'POST', body: '{"code":"1"}' });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({
        error: { type: 'INTERNAL_ERROR', message: expect.stringMatching(/failed to run the code/) },
      });
      expect(seen).toHaveLength(1);
    } finally {
      await new Promise((resolve) => broken.server.close(resolve));
    }
  });
});
