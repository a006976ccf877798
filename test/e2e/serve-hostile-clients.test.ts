import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, stop, type ServeProcess } from './helpers/serve.js';

const KEY = 'hostile-clients-key-0123456789';
const OTHER = 'hostile-clients-other-key-987654';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

/** A raw connection: what it received, and a promise of its close. */
function open(port: number): { socket: Socket; received: () => string; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => data, closed };
}

/** One counter or gauge of a server's `/metrics`, 0 when it is absent. */
async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: auth })).text();
  return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
}

/** Send a whole raw request and read until the server closes (every refusal here closes). */
async function raw(port: number, head: string, body = ''): Promise<{ status: number; text: string }> {
  const c = open(port);
  c.socket.write(head + body);
  await c.closed;
  const text = c.received();
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text };
}

/**
 * What the internet sends a public endpoint: malformed hosts and origins, oversized heads, bad
 * session ids, bodies that trickle or stall, heads that never end, clients that never read.
 * Each is refused early with its own status, and other clients keep getting answers.
 */
describe('sbirtools serve against hostile clients (real sockets)', () => {
  let s: ServeProcess;
  beforeAll(async () => {
    s = await startServe(
      [
        '--quiet',
        '--preset',
        'permissive',
        '--headers-timeout-ms',
        '1000',
        '--request-timeout-ms',
        '4000',
        '--body-idle-timeout-ms',
        '1000',
        '--write-timeout-ms',
        '1500',
        '--max-concurrent-per-key',
        '64',
        '--max-queued-per-key',
        '64',
        '--runs-per-minute',
        '100000',
        '--max-queue-wait-ms',
        '300000',
      ],
      { SBIRTOOLS_API_KEYS: `${KEY},${OTHER}` },
    );
  }, 120_000);
  afterAll(async () => {
    await stop(s);
  });

  // another caller: the fair scheduler keeps it out of the hostile key's queue
  const ok = async () =>
    (
      await (
        await fetch(`${s.url}/v1/run`, {
          method: 'POST',
          headers: { ...auth, authorization: `Bearer ${OTHER}` },
          body: JSON.stringify({ code: '20 + 22' }),
        })
      ).json()
    ).value;

  it.each([
    '127.0.0.1:PORT@evil.example',
    'user@127.0.0.1:PORT',
    '127.0.0.1.:PORT',
    'localhost.',
    '127.0.0.1:PORT/path',
    '127.1:PORT',
  ])('refuses Host %j with 400 before authentication', async (host) => {
    const r = await raw(
      s.port,
      `GET /v1/sessions HTTP/1.1\r\nHost: ${host.replace('PORT', String(s.port))}\r\nConnection: close\r\n\r\n`,
    );
    expect(r.status).toBe(400);
    expect(r.text).not.toContain('UNAUTHORIZED');
  });

  it('a plain Host reaches authentication (401 without a key)', async () => {
    const r = await raw(s.port, `GET /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nConnection: close\r\n\r\n`);
    expect(r.status).toBe(401);
  });

  it.each(['http://127.0.0.1:PORT@evil.example', 'http://127.0.0.1:PORT/', 'http://u@127.0.0.1:PORT', 'null'])(
    'refuses Origin %j with 403',
    async (origin) => {
      const res = await fetch(`${s.url}/v1/sessions`, {
        headers: { ...auth, origin: origin.replace('PORT', String(s.port)) },
      });
      expect(res.status).toBe(403);
      expect((await res.json()).error.type).toBe('ORIGIN_NOT_ALLOWED');
    },
  );

  it('answers 431 to thousands of small headers and to one huge header, 414 to a long URL', async () => {
    const many = Array.from({ length: 2000 }, (_, i) => `x${i}: y\r\n`).join('');
    const a = await raw(s.port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n${many}\r\n`);
    expect(a.status).toBe(431);
    expect(a.text).toContain('HEADERS_TOO_LARGE');
    const b = await raw(s.port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(b.status).toBe(431);
    const c = await raw(s.port, `GET /healthz?${'q'.repeat(6000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expect(c.status).toBe(414);
    expect(c.text).toContain('URL_TOO_LONG');
    expect(await ok()).toBe(42);
  });

  it('refuses session ids with control characters, spaces or over 128 characters with a clear 400', async () => {
    for (const id of ['a\r\nb', 'a b', 'x'.repeat(129), '../x']) {
      const res = await fetch(`${s.url}/v1/run`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ code: '1', session_id: id }),
      });
      expect(res.status, id).toBe(400);
      expect((await res.json()).error.message).toMatch(/session_id/);
    }
    const del = await fetch(`${s.url}/v1/sessions/a%0D%0Ab`, { method: 'DELETE', headers: auth });
    expect(del.status).toBe(400);
    expect((await del.json()).error.type).toBe('VALIDATION_ERROR');
  });

  it('a body over the cap gets a 413 that fetch reads (no broken pipe)', async () => {
    const res = await fetch(`${s.url}/v1/run`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ code: `'${'x'.repeat(3_000_000)}'` }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error.type).toBe('REQUEST_TOO_LARGE');
  });

  it('closes a head that trickles in, while other clients get answers', async () => {
    const c = open(s.port);
    c.socket.write('POST /v1/run HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const drip = setInterval(() => c.socket.writable && c.socket.write('x'), 200);
    try {
      expect(await ok()).toBe(42);
      await c.closed;
    } finally {
      clearInterval(drip);
    }
    expect(c.received()).toMatch(/^$|^HTTP\/1\.1 408/);
  });

  it('answers 408 to a body that stalls, and closes', async () => {
    const c = open(s.port);
    c.socket.write(
      `POST /v1/run HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"code":`,
    );
    await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(c.received()).toContain('REQUEST_TIMEOUT');
  });

  it('closes a body that trickles forever (never idle long enough for the idle timeout)', async () => {
    const c = open(s.port);
    c.socket.write(
      `POST /v1/run HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"code":"`,
    );
    const drip = setInterval(() => c.socket.writable && c.socket.write('1'), 300);
    try {
      expect(await ok()).toBe(42);
      await c.closed;
    } finally {
      clearInterval(drip);
    }
  }, 30_000);

  const dropped = () => metric(s.url, 'sbirtools_slow_readers_dropped_total');
  const rssMb = async () => (await metric(s.url, 'sbirtools_process_resident_memory_bytes')) / 1048576;
  // a ~4 MB answer: more than a socket that is never read takes into its buffers
  const bigRun = (id: number) => {
    // ~3.9 MB of value and ~0.9 MB of stdout (the permissive preset's caps are 4 MB and 1 MB)
    const body = JSON.stringify({ code: `print('y'.repeat(900_000)); '${id}' + 'x'.repeat(3_900_000)` });
    return `POST /v1/run HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };

  it('drops 50 clients that never read their answers, keeps RSS bounded, and keeps answering others', async () => {
    const before = await dropped();
    const baseline = await rssMb();
    const clients = Array.from({ length: 50 }, (_, i) => {
      const c = open(s.port);
      c.socket.pause(); // never reads
      c.socket.write(bigRun(i));
      return c;
    });
    let peak = 0;
    for (let i = 0; (await dropped()) - before < 50; i++) {
      peak = Math.max(peak, await rssMb());
      if (i % 10 === 0) expect(await ok()).toBe(42);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await dropped()) - before).toBe(50);
    // each client got a prefix of its answer, never all of it: the server cut it off
    for (const c of clients) {
      c.socket.resume();
      await c.closed;
      expect(c.received().length).toBeLessThan(4_800_000);
    }
    // holding all 50 answers of ~4.8 MB (as a string and as bytes) would be ~480 MB; dropped readers
    // free theirs, so at any moment only the answers still within their write timeout are held
    expect(peak - baseline).toBeLessThan(480);
  }, 300_000);

  it('a flood of MCP notifications does not grow memory', async () => {
    // its own replica, its heap capped as a container's would be (V8 on a large host lets garbage
    // pile up to ~100 MB before a full collection on Node 26, which is not growth); a warm-up
    // flood first, then the measured one: memory kept per notification would show in it
    const r = await startServe(['--quiet', '--runs-per-minute', '100000'], {
      SBIRTOOLS_API_KEYS: KEY,
      NODE_OPTIONS: '--max-old-space-size=128',
    });
    try {
      const note = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const headers = { ...auth, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
      const send = () =>
        fetch(`${r.url}/mcp`, { method: 'POST', headers, body: note }).then((res) =>
          res.arrayBuffer().then(() => res.status),
        );
      const rss = async () => (await metric(r.url, 'sbirtools_process_resident_memory_bytes')) / 1048576;
      const flood = async (rounds: number) => {
        for (let round = 0; round < rounds; round++) {
          const statuses = await Promise.all(Array.from({ length: 50 }, send));
          expect(statuses.every((st) => st === 202)).toBe(true);
        }
      };
      await flood(60);
      const baseline = await rss();
      await flood(120); // 6,000 notifications: 7 KB kept per notification would be 40 MB
      expect((await rss()) - baseline).toBeLessThan(40);
    } finally {
      await stop(r);
    }
  }, 300_000);
});
