import { afterAll, describe, expect, it } from 'vitest';
import { createSessionStore } from '../../../src/adapters/sessionStore.js';
import { liveSandboxCount, shutdown } from '../../../src/index.js';

afterAll(async () => {
  await shutdown();
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
}

describe('SessionStore', () => {
  it('reports every limit its sandbox options set, maxFileBytes included', async () => {
    await using store = createSessionStore({ sandbox: { preset: 'strict', maxRows: 7, maxFileBytes: 12_345 } });
    expect(store.limits).toMatchObject({ maxRows: 7, maxFileBytes: 12_345 });
  });

  it('keeps state per session_id and runs without one in a fresh sandbox', async () => {
    await using store = createSessionStore();
    expect((await store.run('const a = 1; a', { sessionId: 's1' })).ok).toBe(true);
    expect((await store.run('a + 1', { sessionId: 's1' })).value).toBe(2);
    const other = await store.run('typeof a', { sessionId: 's2' });
    expect(other.value).toBe('undefined');
    expect((await store.run('typeof a')).value).toBe('undefined');
    expect(store.stats().open).toBe(2);
  });

  it('at the cap closes the least recently used idle session', async () => {
    await using store = createSessionStore({ maxSessions: 1 });
    await store.run('const kept = 1', { sessionId: 'a' });
    await store.run('1', { sessionId: 'b' });
    expect(store.stats().open).toBe(1);
    // 'a' was evicted: a new sandbox, so `kept` is gone.
    expect((await store.run('typeof kept', { sessionId: 'a' })).value).toBe('undefined');
  });

  it('answers QUEUE_FULL when every session is busy', async () => {
    await using store = createSessionStore({ maxSessions: 1 });
    const busy = store.run('let s = 0; for (let i = 0; i < 1e6; i++) s += i; s', { sessionId: 'a' });
    const refused = await store.run('1', { sessionId: 'b' });
    expect(refused).toMatchObject({
      ok: false,
      error: { type: 'QUEUE_FULL', hint: expect.stringContaining('omit session_id') },
    });
    expect((await busy).ok).toBe(true);
  });

  it('closes idle sessions after idleTimeoutMs', async () => {
    await using store = createSessionStore({ idleTimeoutMs: 50 });
    await store.run('1', { sessionId: 'a' });
    await until(() => store.stats().open === 0);
    expect(store.stats().open).toBe(0);
  });

  it('close() closes every sandbox and refuses new runs', async () => {
    const store = createSessionStore();
    await store.run('1', { sessionId: 'a' });
    await store.close();
    await store.close();
    expect(liveSandboxCount()).toBe(0);
    await expect(store.run('1')).rejects.toThrow(/session store is closed/);
  });

  it('validates its options up front, echoing the bad value', () => {
    expect(() => createSessionStore({ maxSessions: 0 })).toThrow(
      'Expected the `maxSessions` option to be a positive integer, got `0`',
    );
    expect(() => createSessionStore({ sandbox: { timeoutMs: -1 } })).toThrow(/timeoutMs/);
    expect(() => createSessionStore({ standby: 'yes' as unknown as boolean })).toThrow(
      'Expected the `standby` option to be true or false, got `yes`',
    );
  });
});

describe('SessionStore standby', () => {
  /** What a run ended as: its result's status, or the error it threw. */
  const outcome = (p: Promise<{ ok: boolean; error?: { type: string } | undefined }>) =>
    p.then(
      (r) => ({ ok: r.ok, type: r.error?.type }),
      (e: { code?: string; message: string }) => ({ threw: e.code ?? e.message }),
    );

  it('opens one sandbox ahead, and the first session takes it instead of opening another', async () => {
    const before = liveSandboxCount();
    await using store = createSessionStore({ standby: true });
    await until(() => liveSandboxCount() === before + 1);
    expect(liveSandboxCount()).toBe(before + 1);
    expect((await store.run('const a = 41; a + 1', { sessionId: 's' })).value).toBe(42);
    // the session runs in the standby: no second sandbox was opened
    expect(liveSandboxCount()).toBe(before + 1);
    expect((await store.run('a', { sessionId: 's' })).value).toBe(41);
    // the next session opens its own, as without a standby
    expect((await store.run('typeof a', { sessionId: 't' })).value).toBe('undefined');
    expect(liveSandboxCount()).toBe(before + 2);
  });

  it('a first one-shot run takes the standby and closes it after', async () => {
    const before = liveSandboxCount();
    await using store = createSessionStore({ standby: true });
    await until(() => liveSandboxCount() === before + 1);
    expect((await store.run('var leak = 1; award_data.numRows() > 0')).value).toBe(true);
    expect(liveSandboxCount()).toBe(before);
    expect((await store.run('typeof leak')).value).toBe('undefined');
    expect(store.stats().open).toBe(0);
  });

  it('a standby opened before addTable() is closed unused: the first run sees the table', async () => {
    const before = liveSandboxCount();
    await using store = createSessionStore({ standby: true });
    await until(() => liveSandboxCount() === before + 1);
    store.addTable('extra', [{ x: 1 }, { x: 2 }, { x: 3 }]);
    expect((await store.run('tables.extra.numRows()', { sessionId: 's' })).value).toBe(3);
    expect((await store.run('tables.extra.numRows()')).value).toBe(3);
    expect(liveSandboxCount()).toBe(before + 1);
  });

  it('close() closes a standby no run took', async () => {
    const before = liveSandboxCount();
    const store = createSessionStore({ standby: true });
    await until(() => liveSandboxCount() === before + 1);
    await store.close();
    expect(liveSandboxCount()).toBe(before);
  });

  it('a standby that cannot open leaves the first run the error it would have had without one', async () => {
    const sandbox = { dataPath: '/nonexistent/sbirtools-standby.csv' };
    await using plain = createSessionStore({ sandbox });
    await using standby = createSessionStore({ sandbox, standby: true });
    await new Promise((r) => setTimeout(r, 200));
    const expected = await outcome(plain.run('1', { sessionId: 's' }));
    expect(expected).not.toMatchObject({ ok: true });
    expect(await outcome(standby.run('1', { sessionId: 's' }))).toEqual(expected);
    expect(await outcome(standby.run('1'))).toEqual(await outcome(plain.run('1')));
  });
});
