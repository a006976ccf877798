import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '../../../src/sandbox/pool.js';
import { ServerSessions } from '../../../src/server/sessions/serverSessions.js';
import { createMemoryStore } from '../../../src/server/store/memoryStore.js';
import { StoreUnavailableError } from '../../../src/server/store/storeUnavailable.js';

describe('ServerSessions when the store fails after a cell ran', () => {
  let pool: Pool;
  beforeAll(() => {
    pool = createPool({ size: 1 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('the retry of that cell runs it once: the isolate that ran it unrecorded is dropped', async () => {
    const store = createMemoryStore();
    let failAppend = false;
    const flaky = {
      ...store,
      appendCell: (...args: Parameters<typeof store.appendCell>) =>
        failAppend ? Promise.reject(new StoreUnavailableError('Redis went away')) : store.appendCell(...args),
    };
    const sessions = new ServerSessions({
      store: flaky,
      pool,
      sandbox: { timeoutMs: 1000 },
      sessionTtlMs: 60_000,
      maxLocalSessions: 8,
      caps: { maxReplayCells: 500, maxReplayBytes: 4 * 1048576, maxReplayMs: 60_000 },
      lockWaitMs: 10_000,
    });
    const id = await sessions.create('k');
    await sessions.run('k', 'var n = 1; n', { sessionId: id });
    failAppend = true;
    await expect(sessions.run('k', 'n = n + 1; n', { sessionId: id })).rejects.toThrow(StoreUnavailableError);
    failAppend = false;
    // the client retries the same cell: the history has one cell, so n is 2 after it, never 3
    const retried = await sessions.run('k', 'n = n + 1; n', { sessionId: id });
    expect(retried!.result.value).toBe(2);
    await sessions.close();
  });
});
