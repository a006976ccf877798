import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, stop, type ServeProcess } from '../e2e/helpers/serve.js';

// A client streams an endless chunked body (no Content-Length) to exhaust the server's memory.
// The body limit counts bytes as they arrive, answers 413 and stops reading.
describe('attack: an unbounded chunked request body', () => {
  let s: ServeProcess;
  beforeAll(async () => {
    s = await startServe(['--quiet', '--max-body-bytes', '65536']);
  });
  afterAll(async () => {
    await stop(s);
  });

  it('gets 413 after the cap, not after the whole body, and the server keeps serving', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: s.port,
          path: '/v1/run',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      req.on('error', (err) =>
        String(err).includes('EPIPE') || String(err).includes('ECONNRESET') ? undefined : reject(err),
      );
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      // up to 256 MiB, stopped as soon as the answer arrives
      const pump = () => {
        while (sent < 4096 && !req.destroyed) {
          sent++;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!req.destroyed) req.end();
      };
      req.write('{"code":"');
      pump();
    });
    expect(status).toBe(413);
    const ok = await fetch(`${s.url}/v1/run`, { method: 'POST', body: JSON.stringify({ code: '1 + 1' }) });
    expect((await ok.json()).value).toBe(2);
  });

  it('a declared Content-Length over the cap is refused before reading', async () => {
    const res = await fetch(`${s.url}/v1/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: `'${'x'.repeat(70_000)}'` }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error.type).toBe('REQUEST_TOO_LARGE');
  });
});
