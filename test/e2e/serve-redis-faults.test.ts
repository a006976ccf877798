import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisProcess, type RedisProcess } from './helpers/redisProcess.js';
import { sharedCacheDir, startServe, stop, type ServeProcess } from './helpers/serve.js';

const KEY = 'redis-faults-key-0123456789';
const PASSWORD = 'pw-with-@-and-:-in-it-7f3a9c';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Redis as a dependency that fails, against real replicas and a real redis-server with a password:
 * paused (SIGSTOP), killed and restarted, out of memory (maxmemory), slowed (DEBUG SLEEP). What needs
 * Redis answers 503 STORE_UNAVAILABLE with Retry-After, never 500 and never a long wait; runs
 * without a session keep answering; recovery needs no restart of the replicas.
 */
describe('sbirtools serve with a Redis in trouble', () => {
  let redis: RedisProcess;
  const replicas: ServeProcess[] = [];
  const cacheDir = sharedCacheDir();

  beforeAll(async () => {
    redis = await startRedisProcess({ password: PASSWORD });
    for (let i = 0; i < 2; i++) {
      replicas.push(
        await startServe(
          ['--quiet', '--redis-timeout-ms', '1000', '--max-concurrent-per-key', '4', '--max-queue-wait-ms', '60000'],
          { SBIRTOOLS_API_KEYS: KEY, SBIRTOOLS_REDIS_URL: redis.url },
          { cacheDir },
        ),
      );
    }
  }, 180_000);

  afterAll(async () => {
    for (const r of replicas) await stop(r);
    await redis?.stop();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  const at = (i: number) => replicas[i % replicas.length]!.url;
  const run = (i: number, body: unknown) =>
    fetch(`${at(i)}/v1/run`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
  const newSession = (i = 0) => fetch(`${at(i)}/v1/sessions`, { method: 'POST', headers: auth, body: '{}' });

  it('admits exactly 4 of a burst of 50 runs spread over two replicas (limit 4, counted in Redis)', async () => {
    const code = 'let s = 0; for (let k = 0; k < 3e8; k++) s += k & 1; s';
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        run(i, { code }).then(async (r) => ({
          status: r.status,
          retry: r.headers.get('retry-after'),
          body: await r.json(),
          at: Date.now(),
        })),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok).toHaveLength(4);
    expect(limited).toHaveLength(46);
    for (const a of limited) {
      expect(a.body.error.type).toBe('RATE_LIMITED');
      expect(Number(a.retry)).toBeGreaterThanOrEqual(1);
    }
    // a client honours Retry-After: the next tests' requests of this key come after it (sooner,
    // the replica refuses them again without a look; refusalPacer.ts)
    const clear = Math.max(...limited.map((a) => a.at + Number(a.retry) * 1000));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, clear - Date.now()) + 50));
  }, 120_000);

  it('paused Redis: session routes answer 503 STORE_UNAVAILABLE with Retry-After; runs without a session answer; resumed, all recover', async () => {
    const sid = (await (await newSession()).json()).session_id as string;
    expect((await (await run(0, { code: 'var kept = 41; kept', session_id: sid })).json()).value).toBe(41);
    redis.pause();
    try {
      const inSession = await run(1, { code: 'kept + 1', session_id: sid });
      expect(inSession.status).toBe(503);
      expect(inSession.headers.get('retry-after')).toBeTruthy();
      const body = await inSession.json();
      expect(body.error.type).toBe('STORE_UNAVAILABLE');
      expect(body.error.message).toMatch(/did not answer within 1000 ms/);
      expect(JSON.stringify(body)).not.toContain(PASSWORD);
      const oneOff = await run(0, { code: '6 * 7' });
      expect(oneOff.status).toBe(200);
      expect((await oneOff.json()).value).toBe(42);
      expect((await fetch(`${at(0)}/readyz`)).status).toBe(503);
    } finally {
      redis.resume();
    }
    await until(
      async () => (await run(1, { code: 'kept + 1', session_id: sid })).status === 200,
      'the session to answer after SIGCONT',
    );
  }, 120_000);

  it('Redis killed: 503 on what needs it, one-off runs answer; restarted, the same replicas recover without a restart', async () => {
    await redis.kill();
    const created = await newSession(1);
    expect(created.status).toBe(503);
    expect((await created.json()).error.type).toBe('STORE_UNAVAILABLE');
    expect(created.headers.get('retry-after')).toBeTruthy();
    const idem = await fetch(`${at(0)}/v1/run`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': 'k1' },
      body: JSON.stringify({ code: '1' }),
    });
    expect(idem.status).toBe(503);
    for (let i = 0; i < 4; i++) expect((await (await run(i, { code: `${i} + 1` })).json()).value).toBe(i + 1);
    await redis.restart();
    await until(async () => (await newSession(1)).status === 201, 'session creation after the restart');
    await until(async () => (await fetch(`${at(0)}/readyz`)).status === 200, 'readiness after the restart');
  }, 120_000);

  it('Redis out of memory: writes answer 503 STORE_UNAVAILABLE (not 500), one-off runs answer, and it recovers', async () => {
    redis.cli('CONFIG', 'SET', 'maxmemory', '1');
    try {
      const created = await newSession(0);
      expect(created.status).toBe(503);
      const body = await created.json();
      expect(body.error.type).toBe('STORE_UNAVAILABLE');
      expect(body.error.message).toMatch(/out of memory/);
      expect((await (await run(1, { code: '2 + 2' })).json()).value).toBe(4);
    } finally {
      redis.cli('CONFIG', 'SET', 'maxmemory', '0');
    }
    expect((await newSession(0)).status).toBe(201);
  }, 60_000);

  it('a slow Redis (DEBUG SLEEP) does not hold up runs that do not need it', async () => {
    const order: string[] = [];
    const sleeper = spawn(
      'redis-cli',
      ['-h', '127.0.0.1', '-p', String(redis.port), '--no-auth-warning', '-a', PASSWORD, 'DEBUG', 'SLEEP', '6'],
      { stdio: 'ignore' },
    );
    const slept = new Promise<void>((resolve) => sleeper.once('exit', () => (order.push('redis awake'), resolve())));
    await new Promise((r) => setTimeout(r, 200)); // let the DEBUG command reach Redis (it blocks it whole)
    const answers = await Promise.all(
      [0, 1, 2, 3].map((i) => run(i, { code: `${i} * 10` }).then(async (r) => (order.push(`run ${i}`), r.status))),
    );
    expect(answers).toEqual([200, 200, 200, 200]);
    await slept;
    // every run answered while Redis still slept
    expect(order.indexOf('redis awake')).toBe(4);
  }, 60_000);
});

describe('sbirtools serve over rediss:// (TLS) with a password', () => {
  it('connects, keeps sessions, and never prints the password', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sbirtools-tls-'));
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const redis = await startRedisProcess({ password: PASSWORD, tls: { cert, key } });
    let serve: ServeProcess | undefined;
    try {
      expect(redis.url.startsWith('rediss://')).toBe(true);
      serve = await startServe([], {
        SBIRTOOLS_API_KEYS: KEY,
        SBIRTOOLS_REDIS_URL: redis.url,
        NODE_EXTRA_CA_CERTS: cert,
      });
      const sid = (
        await (await fetch(`${serve.url}/v1/sessions`, { method: 'POST', headers: auth, body: '{}' })).json()
      ).session_id;
      await fetch(`${serve.url}/v1/run`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ code: 'var t = 5', session_id: sid }),
      });
      const r = await (
        await fetch(`${serve.url}/v1/run`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ code: 't * 2', session_id: sid }),
        })
      ).json();
      expect(r.value).toBe(10);
      expect(Number(redis.cli('DBSIZE'))).toBeGreaterThan(0);
      // a wrong password fails at start with a message that names the URL without any password
      const wrong = redis.url.replace(encodeURIComponent(PASSWORD), 'not-the-password');
      await expect(
        startServe([], { SBIRTOOLS_API_KEYS: KEY, SBIRTOOLS_REDIS_URL: wrong, NODE_EXTRA_CA_CERTS: cert }),
      ).rejects.toThrow(/rediss:\/\/:\*\*\*@127\.0\.0\.1/);
      expect(serve.stdout() + serve.stderr()).not.toContain(PASSWORD);
    } finally {
      await stop(serve);
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
