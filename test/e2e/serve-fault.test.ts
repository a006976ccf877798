import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRoundRobinProxy, type RoundRobinProxy } from './helpers/roundRobinProxy.js';
import { sharedCacheDir, startRedis, startServe, stop, type ServeProcess } from './helpers/serve.js';
import { waitFor } from '../helpers/waitFor.js';

const KEY = 'fault-test-key-0123456789';
const CELLS = 30;

/**
 * Three replicas sharing one Redis behind a round-robin proxy without affinity. A conversation of
 * 30 dependent cells runs while one replica is SIGKILLed mid-run and later restarted: every answer
 * must be the one a single uninterrupted session gives, and no cell may run twice.
 */
describe('sbirtools serve: 3 replicas, no affinity, one SIGKILLed mid-conversation', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let proxy: RoundRobinProxy;
  const ports: number[] = [];
  const replicas: Array<ServeProcess | undefined> = [];
  const cacheDir = sharedCacheDir();
  /** A replica on a free port it picks (again if another process takes it first), or on `port` (a restart: the proxy's). */
  const startReplica = (port?: number) =>
    startServe(['--redis', redis.url, '--quiet'], { SBIRTOOLS_API_KEYS: KEY }, { port, cacheDir });

  beforeAll(async () => {
    redis = await startRedis();
    // one after the other: the first writes the binary cache the others then open
    for (let i = 0; i < 3; i++) {
      replicas[i] = await startReplica();
      ports.push(replicas[i]!.port);
    }
    proxy = await startRoundRobinProxy(ports);
  }, 180_000);

  afterAll(async () => {
    await proxy?.close();
    for (const r of replicas) await stop(r);
    await redis?.stop();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  /** POST through the proxy, retrying (same Idempotency-Key) on 502/503 and dropped connections, as a client should. */
  async function call(
    path: string,
    body: unknown,
    idem: string,
    tag = idem,
  ): Promise<{ status: number; json: any; attempts: number; replayed: boolean }> {
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await fetch(`${proxy.url}${path}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${KEY}`,
            'content-type': 'application/json',
            'idempotency-key': idem,
            'x-test-tag': tag,
          },
          body: JSON.stringify(body),
        });
        if ((res.status === 502 || res.status === 503) && attempt < 20) {
          await new Promise((r) => setTimeout(r, 250));
          continue;
        }
        return {
          status: res.status,
          json: await res.json(),
          attempts: attempt,
          replayed: res.headers.get('idempotent-replayed') === 'true',
        };
      } catch (err) {
        if (attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  it('answers all 30 cells exactly as one uninterrupted session would, each run once', async () => {
    const created = await call('/v1/sessions', {}, 'create-session');
    expect(created.status).toBe(201);
    const sid = created.json.session_id as string;
    // Expected answers, computed from the recorded randomness: a replay with other seeds, a lost
    // cell or a cell run twice changes acc, log or sumR.
    let acc = 7;
    let sumR = 0;
    let t0: number | undefined;
    let killedAt = 0;
    let retried = 0;
    for (let i = 1; i <= CELLS; i++) {
      let code: string;
      if (i === 1) code = 'var log = [1]; var acc = 7; var sumR = 0; var t0 = Date.now(); [acc, log.length, sumR, t0]';
      else if (i % 5 === 0)
        code = `var r${i} = Math.random(); sumR += r${i}; log.push(${i}); [acc, log.length, sumR, t0, r${i}]`;
      else if (i === 12)
        code = `let spin = 0; for (let k = 0; k < 1.5e9; k++) spin += k & 1; acc = (acc * 31 + ${i}) % 1000003; log.push(${i}); [acc, log.length, sumR, t0]`;
      else code = `acc = (acc * 31 + ${i}) % 1000003; log.push(${i}); [acc, log.length, sumR, t0]`;
      const pending = call('/v1/run', { code, session_id: sid }, `cell-${i}`, `cell-${i}`);
      if (i === 12) {
        // SIGKILL the replica running this cell while it runs (a long loop: Date.now() is frozen in sessions)
        const port = await waitFor(() => proxy.inFlight.get('cell-12'), { what: 'cell 12 to reach a replica' });
        expect(port).toBeDefined();
        killedAt = ports.indexOf(port!);
        replicas[killedAt]!.proc.kill('SIGKILL');
        await replicas[killedAt]!.exited;
      }
      if (i === 22) replicas[killedAt] = await startReplica(ports[killedAt]);
      const { status, json, attempts } = await pending;
      if (attempts > 1) retried++;
      expect(status, `cell ${i}: ${JSON.stringify(json).slice(0, 300)}`).toBe(200);
      expect(json.ok, `cell ${i}: ${JSON.stringify(json.error)}`).toBe(true);
      expect(json.sessionReset, `cell ${i} reset`).toBeUndefined();
      if (i !== 1 && i % 5 !== 0) acc = (acc * 31 + i) % 1000003;
      const value = json.value as number[];
      if (i === 1) t0 = value[3];
      if (i % 5 === 0) sumR += value[4]!;
      expect(value.slice(0, 4), `cell ${i}`).toEqual([acc, i, sumR, t0]);
    }
    // the killed cell was retried by the client and still ran once (log has each cell once, in order)
    expect(retried).toBeGreaterThan(0);
    const final = await call('/v1/run', { code: 'log.join(",")', session_id: sid }, 'final');
    expect(final.json.value).toBe(Array.from({ length: CELLS }, (_, k) => k + 1).join(','));
    // a retry of an answered cell returns the first answer and runs nothing
    const again = await call(
      '/v1/run',
      { code: `acc = (acc * 31 + 2) % 1000003; log.push(2); [acc, log.length, sumR, t0]`, session_id: sid },
      'cell-2',
    );
    expect(again.replayed).toBe(true);
    expect((await call('/v1/run', { code: 'log.length', session_id: sid }, 'len')).json.value).toBe(CELLS);
    // replicas did rebuild the session from Redis (no affinity), and every replica served requests
    let replayed = 0;
    for (const port of ports) {
      const text = await (
        await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${KEY}` } })
      ).text();
      replayed += Number(/sbirtools_replayed_cells_total (\d+)/.exec(text)?.[1] ?? 0);
    }
    expect(replayed).toBeGreaterThan(0);
    expect([...proxy.counts.keys()].sort()).toEqual([...ports].sort());
  }, 300_000);
});
