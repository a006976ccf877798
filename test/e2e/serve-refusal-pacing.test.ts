import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/waitFor.js';
import { startRedisProcess, type RedisProcess } from './helpers/redisProcess.js';
import { startServe, stop, type ServeProcess } from './helpers/serve.js';

const FLOOD = 'pacing-flood-key-0123456789';
const CALM = 'pacing-calm-key-0123456789';
const LIMIT = 3;

/** One counter or gauge of the server's `/metrics` (summed over its labels matching `labels`). */
async function metric(url: string, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${CALM}` } })).text();
  let sum = 0;
  for (const m of text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\d+)`, 'gm')))
    if ((m[1] ?? '').includes(labels)) sum += Number(m[2]);
  return sum;
}

/** Scripts Redis has run so far: every budget decision (spend, slot, release) is one. */
function redisScripts(redis: RedisProcess): number {
  let n = 0;
  for (const m of redis.cli('INFO', 'commandstats').matchAll(/^cmdstat_(?:eval|evalsha):calls=(\d+)/gm))
    n += Number(m[1]);
  return n;
}

/**
 * A caller that ignores `Retry-After` (REST or MCP): once refused, it is refused again from the
 * head of its requests — before its body is read, without Redis — and each refusal is held until
 * its Retry-After (at most --max-refusal-hold-ms), so its re-sends cannot outrun what it was told;
 * another caller's runs answer meanwhile. Real replica, real Redis, real sockets.
 */
describe('sbirtools serve: refusals paced for a caller that comes back before its Retry-After', () => {
  let redis: RedisProcess;
  let s: ServeProcess;
  beforeAll(async () => {
    redis = await startRedisProcess({ password: 'pacing-redis-password' });
    s = await startServe(
      [
        '--quiet',
        '--runs-per-minute',
        String(LIMIT),
        // long enough that only the head refusal can answer a body that never arrives
        '--body-idle-timeout-ms',
        '120000',
        '--request-timeout-ms',
        '180000',
        // long enough that all of the test's early requests are held at once on a loaded machine
        '--max-refusal-hold-ms',
        '15000',
      ],
      { SBIRTOOLS_API_KEYS: `${FLOOD},${CALM}`, SBIRTOOLS_REDIS_URL: redis.url },
    );
  }, 120_000);
  afterAll(async () => {
    await stop(s);
    await redis?.stop();
  });

  const run = (key: string, code: string) =>
    fetch(`${s.url}/v1/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });

  it('refuses at the head, holds each refusal, asks Redis nothing, and lets the other caller run', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await run(FLOOD, `${i}`)).status).toBe(200);
    const told = await run(FLOOD, '1');
    expect(told.status).toBe(429);
    const toldRetry = Number(told.headers.get('retry-after'));
    expect(toldRetry).toBeGreaterThan(3);
    await told.text();

    // a body announced and never sent: only a refusal from the head can answer it (the body
    // limit would wait out its 120 s idle timeout and answer 408)
    const socket = connect(s.port, '127.0.0.1');
    let raw = '';
    socket.on('data', (d: Buffer) => (raw += d.toString()));
    socket.write(
      `POST /v1/run HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${FLOOD}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"code":`,
    );

    const before = redisScripts(redis);
    const early = Array.from({ length: 10 }, () => run(FLOOD, '2'));
    const mcp = fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${FLOOD}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'run_analysis', arguments: { code: '3' } },
      }),
    });
    // all twelve are held (ten REST, one MCP, the raw one), none answered yet
    await waitFor(async () => (await metric(s.url, 'sbirtools_refusals_held')) === 12, {
      what: 'twelve held refusals',
      timeoutMs: 60_000,
    });
    expect(raw).toBe('');
    // the other caller is not held, nor counted with the flood
    const calm = await run(CALM, '6 * 7');
    expect(calm.status).toBe(200);
    expect((await calm.json()).value).toBe(42);

    const answers = await Promise.all([...early, mcp]);
    for (const a of answers) {
      expect(a.status).toBe(429);
      expect(a.headers.get('sbirtools-code-ran')).toBe('false');
      const retry = Number(a.headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThan(toldRetry);
      const body = (await a.json()) as { error: { type: string; message: string } };
      expect(body.error.type).toBe('RATE_LIMITED');
      expect(body.error.message).toMatch(/came back before the Retry-After/);
    }
    await waitFor(() => /\r\n\r\n/.test(raw), { what: 'the raw request to be answered', timeoutMs: 60_000 });
    expect(raw).toMatch(/^HTTP\/1\.1 429 /);
    expect(raw).toMatch(/\r\nretry-after: \d+\r\n/i);
    socket.destroy();
    // the twelve held requests asked Redis nothing: the scripts it ran meanwhile are the calm run's
    // budget (its spend, its slot and the slot's release), not one spend each of theirs
    expect(redisScripts(redis) - before).toBeLessThanOrEqual(3);
    expect(await metric(s.url, 'sbirtools_rate_limited_total', 'reason="early"')).toBe(12);
    expect(await metric(s.url, 'sbirtools_refusals_held')).toBe(0);
  }, 180_000);
});
