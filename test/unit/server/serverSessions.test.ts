import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '../../../src/sandbox/pool.js';
import { ServerSessions } from '../../../src/server/sessions/serverSessions.js';
import { createMemoryStore } from '../../../src/server/store/memoryStore.js';
import type { SharedStore } from '../../../src/server/store/sharedStore.js';

const caps = { maxReplayCells: 500, maxReplayBytes: 4 * 1048576, maxReplayMs: 60_000 };

/** Two "replicas" over one store: each has its own isolates, the history is shared. */
function replicas(store: SharedStore, pool: Pool, overrides: Partial<typeof caps> = {}) {
  const make = () =>
    new ServerSessions({
      store,
      pool,
      sandbox: { timeoutMs: 1000 },
      sessionTtlMs: 60_000,
      maxLocalSessions: 8,
      caps: { ...caps, ...overrides },
      lockWaitMs: 10_000,
    });
  return [make(), make()] as const;
}

describe('ServerSessions: rebuilding a session on another replica', () => {
  let pool: Pool;
  beforeAll(() => {
    pool = createPool({ size: 1 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('replays the recorded cells (same clock and seed) and continues with the same state', async () => {
    const store = createMemoryStore();
    const [a, b] = replicas(store, pool);
    const id = await a.create('k');
    const first = await a.run('k', 'var r = Math.random(); var t = Date.now(); var n = 1; [r, t]', { sessionId: id });
    await a.run('k', 'n = n + 1', { sessionId: id });
    const onB = await b.run('k', '[r, t, n]', { sessionId: id });
    expect(onB!.replayedCells).toBe(2);
    expect(onB!.result.value).toEqual([...(first!.result.value as number[]), 2]);
    expect(onB!.result.sessionReset).toBeUndefined();
    // back on A: A is one cell behind and catches up by replaying only that cell
    const backOnA = await a.run('k', 'n', { sessionId: id });
    expect(backOnA!.replayedCells).toBe(1);
    expect(backOnA!.result.value).toBe(2);
    await a.close();
    await b.close();
  });

  it('a replay that diverges from the recorded hash resets the session and says so', async () => {
    const store = createMemoryStore();
    const [a, b] = replicas(store, pool);
    const id = await a.create('k');
    await a.run('k', 'var x = 41', { sessionId: id });
    await a.run('k', 'x + 1', { sessionId: id });
    // what a replica would see if the data or the prelude differed: the recorded value hash does not match
    const cells = await store.cells('k', id);
    await store.clearCells('k', id);
    for (const c of cells) await store.appendCell('k', id, c === cells[1] ? { ...c, valueHash: 'sha256:other' } : c);
    const onB = await b.run('k', 'typeof x', { sessionId: id });
    expect(onB!.result.sessionReset).toBe(true);
    expect(onB!.result.value).toBe('undefined');
    expect(onB!.resetReason).toMatch(/cell 2 diverged on replay \(its value differs/);
    expect(onB!.result.stderr).toMatch(/this session was reset before this run/);
    // the history restarted from this run: A (stale) rebuilds the same empty state
    expect((await a.run('k', 'typeof x', { sessionId: id }))!.result.value).toBe('undefined');
    await a.close();
    await b.close();
  });

  it('a history over the replay cap resets instead of replaying', async () => {
    const store = createMemoryStore();
    const [a, b] = replicas(store, pool, { maxReplayCells: 2 });
    const id = await a.create('k');
    for (const code of ['var a1 = 1', 'var a2 = 2', 'var a3 = 3']) await a.run('k', code, { sessionId: id });
    const onB = await b.run('k', 'typeof a1', { sessionId: id });
    expect(onB!.result.sessionReset).toBe(true);
    expect(onB!.resetReason).toMatch(/3 cells, over the 2-cell replay cap/);
    expect(onB!.replayedCells).toBe(0);
    await a.close();
    await b.close();
  });

  it('a run that hits a limit resets the state for every replica, and the next run says so', async () => {
    const store = createMemoryStore();
    const [a, b] = replicas(store, pool);
    const id = await a.create('k');
    await a.run('k', 'var kept = 1', { sessionId: id });
    const timedOut = await a.run('k', 'for (;;) {}', { sessionId: id });
    expect(timedOut!.result.error?.type).toBe('TIMEOUT');
    expect(timedOut!.ran).toBe(true);
    const next = await b.run('k', 'typeof kept', { sessionId: id });
    expect(next!.result.sessionReset).toBe(true);
    expect(next!.result.value).toBe('undefined');
    expect((await a.run('k', 'typeof kept', { sessionId: id }))!.result.sessionReset).toBeUndefined();
    await a.close();
    await b.close();
  });

  it('unknown sessions are not found unless created on first use; keys are separate spaces', async () => {
    const store = createMemoryStore();
    const [a] = replicas(store, pool);
    expect(await a.run('k', '1', { sessionId: 'nope' })).toBeUndefined();
    await a.run('k', 'var mine = 1', { sessionId: 'named', create: true });
    expect((await a.run('other', 'typeof mine', { sessionId: 'named', create: true }))!.result.value).toBe('undefined');
    expect(await a.list('k')).toEqual(['named']);
    await a.close();
  });
});
