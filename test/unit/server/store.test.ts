import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../src/server/store/memoryStore.js';
import { createRedisStore } from '../../../src/server/store/redisStore.js';
import type { Cell, SharedStore } from '../../../src/server/store/sharedStore.js';
import { startRedis } from '../../e2e/helpers/serve.js';
import { waitFor } from '../../helpers/waitFor.js';

const cell = (id: string): Cell => ({
  id,
  code: `var ${id} = 1`,
  deterministic: { now: 1, seed: 2 },
  ok: true,
  valueHash: 'v',
  stdoutHash: 's',
});
const answer = { fingerprint: 'f', status: 200, body: '{"ok":true}', ran: true };

/** The same contract, against the in-memory store and a real redis-server. */
function contract(name: string, make: () => Promise<SharedStore>) {
  describe(`${name} store`, () => {
    let store: SharedStore;
    beforeAll(async () => {
      store = await make();
    });
    afterAll(async () => {
      await store?.close();
      await store?.close(); // idempotent
    });

    it('keeps sessions per owner, in order, and forgets deleted ones', async () => {
      expect(await store.createSession('o1', 's', 60_000)).toBe(true);
      expect(await store.createSession('o1', 's', 60_000)).toBe(false);
      expect(await store.touchSession('o2', 's', 60_000)).toBe(false);
      await store.appendCell('o1', 's', cell('a'));
      await store.appendCell('o1', 's', cell('b'), { key: 'o1:k', value: answer, ttlMs: 60_000 });
      expect((await store.cells('o1', 's')).map((c) => c.id)).toEqual(['a', 'b']);
      expect(await store.getAnswer('o1:k')).toEqual(answer);
      expect(await store.listSessions('o1')).toEqual(['s']);
      expect(await store.listSessions('o2')).toEqual([]);
      await store.clearCells('o1', 's');
      expect(await store.cells('o1', 's')).toEqual([]);
      expect(await store.deleteSession('o1', 's')).toBe(true);
      expect(await store.deleteSession('o1', 's')).toBe(false);
      expect(await store.listSessions('o1')).toEqual([]);
    });

    it('expires sessions after their TTL', async () => {
      await store.createSession('o1', 'short', 150);
      await store.appendCell('o1', 'short', cell('x'));
      await waitFor(async () => !(await store.listSessions('o1')).includes('short'), { what: 'the session to expire' });
      expect(await store.touchSession('o1', 'short', 150)).toBe(false);
      expect(await store.cells('o1', 'short')).toEqual([]);
    });

    it('gives a lease to one holder at a time, renewable only by it, free after release or expiry', async () => {
      const t1 = await store.acquireLease('L', 200);
      expect(t1).toBeDefined();
      expect(await store.acquireLease('L', 200)).toBeUndefined();
      expect(await store.renewLease('L', 'not-the-token', 200)).toBe(false);
      expect(await store.renewLease('L', t1!, 200)).toBe(true);
      await store.releaseLease('L', 'not-the-token');
      expect(await store.acquireLease('L', 200)).toBeUndefined();
      await store.releaseLease('L', t1!);
      const t2 = await store.acquireLease('L', 100);
      expect(t2).toBeDefined();
      // free once its 100 ms pass: polled, since a lease cannot be observed without trying it
      expect(await waitFor(() => store.acquireLease('L', 100), { what: 'the lease to expire' })).toBeDefined();
    });

    it("keeps each owner's tables (schema + bytes), replaces by name, refreshes and expires them", async () => {
      const info = (name: string, sha: string) => ({
        name,
        sha,
        numRows: 2,
        columns: [{ name: 'UEI', type: 'string' }],
      });
      const bytes = new Uint8Array([0, 1, 2, 250, 255]);
      expect(await store.tableIndex('t1', 60_000)).toEqual([]);
      await store.putTable('t1', info('zeta', 'aa'), bytes, 60_000);
      await store.putTable('t1', info('alpha', 'bb'), new Uint8Array([9]), 60_000);
      await store.putTable('t1', info('zeta', 'cc'), new Uint8Array([7, 7]), 60_000);
      expect((await store.tableIndex('t1', 60_000)).map((t) => [t.name, t.sha])).toEqual([
        ['alpha', 'bb'],
        ['zeta', 'cc'],
      ]);
      expect([...((await store.tableBytes('t1', 'cc')) ?? [])]).toEqual([7, 7]);
      expect(await store.tableIndex('t2', 60_000)).toEqual([]);
      expect(await store.tableBytes('t2', 'cc')).toBeUndefined();
      await store.putTable('t3', info('short', 'dd'), bytes, 150);
      // every key of the table has had its TTL set by now; Redis sets the index's two round trips
      // after the bytes', so the index outlives the bytes by that much: the bytes going is not the end
      const allSet = Date.now();
      expect([...((await store.tableBytes('t3', 'dd')) ?? [])]).toEqual([...bytes]);
      // polled through tableBytes: tableIndex would refresh the TTL it is waiting out
      await waitFor(async () => Date.now() > allSet + 150 && (await store.tableBytes('t3', 'dd')) === undefined, {
        what: 'the table to expire',
      });
      expect(await store.tableIndex('t3', 60_000)).toEqual([]);
    });

    it('admits exactly `limit` of a concurrent burst of 50, for budgets and for slots', async () => {
      const spends = await Promise.all(Array.from({ length: 50 }, () => store.spend('burst', 4, 60_000)));
      expect(spends.filter((s) => s.ok)).toHaveLength(4);
      const refused = spends.find((s) => !s.ok)!;
      expect(refused.retryMs).toBeGreaterThan(0);
      expect(refused.retryMs).toBeLessThanOrEqual(60_000);
      const slots = await Promise.all(Array.from({ length: 50 }, () => store.acquireSlot('conc', 4, 60_000)));
      const held = slots.filter((t): t is string => t !== undefined);
      expect(held).toHaveLength(4);
      expect(new Set(held).size).toBe(4);
      await store.releaseSlot('conc', held[0]!);
      expect(await store.acquireSlot('conc', 4, 60_000)).toBeDefined();
      expect(await store.acquireSlot('conc', 4, 60_000)).toBeUndefined();
    });

    it('frees a slot that is not renewed, and renews one that is', async () => {
      const a = await store.acquireSlot('ttl', 1, 150);
      expect(a).toBeDefined();
      expect(await store.renewSlot('ttl', a!, 60_000)).toBe(true);
      expect(await store.renewSlot('ttl', 'other', 60_000)).toBe(false);
      await store.releaseSlot('ttl', a!);
      const b = await store.acquireSlot('ttl', 1, 100);
      expect(b).toBeDefined();
      await new Promise((r) => setTimeout(r, 250));
      expect(await store.renewSlot('ttl', b!, 100)).toBe(false);
      expect(await store.acquireSlot('ttl', 1, 100)).toBeDefined();
    });

    it('spends from a sliding window: the budget comes back as old spends age out', async () => {
      expect((await store.spend('slide', 2, 200)).ok).toBe(true);
      expect((await store.spend('slide', 2, 200)).ok).toBe(true);
      expect((await store.spend('slide', 2, 200)).ok).toBe(false);
      await new Promise((r) => setTimeout(r, 350));
      expect((await store.spend('slide', 2, 200)).ok).toBe(true);
    });

    it('counts hits in a fixed window', async () => {
      const a = await store.hit('w', 60_000);
      const b = await store.hit('w', 60_000);
      expect([a.count, b.count]).toEqual([1, 2]);
      expect(b.resetMs).toBeGreaterThan(0);
      expect(b.resetMs).toBeLessThanOrEqual(60_000);
      expect(await store.ping()).toBe(true);
    });
  });
}

let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
afterAll(async () => {
  await redis?.stop();
});

contract('memory', async () => createMemoryStore());
contract('redis', async () => {
  redis = await startRedis();
  return createRedisStore({ url: redis.url, prefix: 'test:' });
});

describe('createRedisStore', () => {
  it('says which URL it could not reach', async () => {
    await expect(createRedisStore({ url: 'redis://user:pw@127.0.0.1:1' })).rejects.toThrow(
      /Cannot connect to Redis at redis:\/\/user:\*\*\*@127\.0\.0\.1:1/,
    );
  });
});

describe('the Redis store’s table index', () => {
  it('drops a table whose bytes are gone (expired or evicted) instead of listing it; one added again is listed', async () => {
    const server = await startRedis();
    const store = await createRedisStore({ url: server.url, prefix: 'idx:' });
    const { createClient } = await import('redis');
    const raw = createClient({ url: server.url });
    await raw.connect();
    try {
      const info = (name: string, sha: string) => ({ name, sha, numRows: 1, columns: [{ name: 'x', type: 'number' }] });
      await store.putTable('o', info('gone', 'g1'), new Uint8Array([1]), 60_000);
      await store.putTable('o', info('kept', 'k1'), new Uint8Array([2]), 60_000);
      // the bytes leave first, as when their TTL runs out two round trips before the index's
      expect(await raw.del('idx:tb:o:g1')).toBe(1);
      expect((await store.tableIndex('o', 60_000)).map((t) => t.name)).toEqual(['kept']);
      expect(await raw.hKeys('idx:t:o')).toEqual(['kept']);
      // its bytes refreshed as before
      expect(await raw.pTTL('idx:tb:o:k1')).toBeGreaterThan(50_000);
      // the only table's bytes gone: nothing listed, the index gone with it
      expect(await raw.del('idx:tb:o:k1')).toBe(1);
      expect(await store.tableIndex('o', 60_000)).toEqual([]);
      expect(await raw.exists('idx:t:o')).toBe(0);
      // added again after that: listed
      await store.putTable('o', info('gone', 'g2'), new Uint8Array([3]), 60_000);
      expect((await store.tableIndex('o', 60_000)).map((t) => [t.name, t.sha])).toEqual([['gone', 'g2']]);
    } finally {
      await raw.quit();
      await store.close();
      await server.stop();
    }
  });
});
