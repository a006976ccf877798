import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, stop, type ServeProcess } from '../e2e/helpers/serve.js';

/** A raw request with any Host and Origin (fetch would not let a page choose them; an attacker's DNS does). */
function raw(
  port: number,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: body === undefined ? 'GET' : 'POST', headers },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

// DNS rebinding: a page on attacker.example re-points its name at 127.0.0.1 and calls the local
// server as a "same-origin" site. The server must refuse a Host it does not serve, and a foreign Origin.
describe('attack: DNS rebinding against a loopback server without keys', () => {
  let s: ServeProcess;
  beforeAll(async () => {
    s = await startServe(['--quiet']);
  });
  afterAll(async () => {
    await stop(s);
  });

  it('a foreign Host gets 421 and runs nothing, on every route', async () => {
    for (const path of ['/v1/run', '/mcp']) {
      const r = await raw(
        s.port,
        path,
        { host: `attacker.example:${s.port}`, 'content-type': 'application/json' },
        JSON.stringify({ code: '6 * 7' }),
      );
      expect(r.status).toBe(421);
      expect(r.body).toContain('HOST_NOT_ALLOWED');
      expect(r.body).not.toContain('42');
    }
    expect((await raw(s.port, '/v1/sessions', { host: 'attacker.example' })).status).toBe(421);
  });

  it('a foreign Origin gets 403 even with the right Host, and no CORS header', async () => {
    const r = await raw(
      s.port,
      '/v1/run',
      { host: `127.0.0.1:${s.port}`, origin: 'http://attacker.example', 'content-type': 'application/json' },
      JSON.stringify({ code: '6 * 7' }),
    );
    expect(r.status).toBe(403);
    expect(r.body).toContain('ORIGIN_NOT_ALLOWED');
  });

  it('the real host still works', async () => {
    const r = await raw(
      s.port,
      '/v1/run',
      { host: `localhost:${s.port}`, 'content-type': 'application/json' },
      JSON.stringify({ code: '6 * 7' }),
    );
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).value).toBe(42);
  });
});
