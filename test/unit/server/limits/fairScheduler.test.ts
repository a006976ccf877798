import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { AdmissionError, FairScheduler } from '../../../../src/server/limits/fairScheduler.js';

describe('FairScheduler', () => {
  it("keeps one caller to its share, so another caller's run starts at once while the first floods", async () => {
    const s = new FairScheduler({
      capacity: 4,
      lowCapacity: 0,
      maxPerKey: 2,
      maxQueuedPerKey: 100,
      maxQueueWaitMs: 60_000,
    });
    const flood = Array.from({ length: 50 }, () => s.acquire('flood'));
    const granted: Array<() => void> = [];
    flood.slice(0, 2).forEach((p) => p.then((g) => granted.push(g.release)));
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    expect(granted).toHaveLength(2);
    expect(s.stats()).toMatchObject({ running: 2, queued: 48 });
    // another caller is not behind the 48 waiting runs
    const other = (await s.acquire('other')).release;
    expect(s.stats().running).toBe(3);
    other();
    for (const r of granted) r();
  });

  it('serves waiting callers round robin when slots free', async () => {
    // the clock stands still: each run uses 0 ms, so the order is the round robin alone (on a busy
    // machine the first holder's real milliseconds put `a` behind `b` and `c`, the rule tested below)
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const s = new FairScheduler({
      capacity: 1,
      lowCapacity: 0,
      maxPerKey: 1,
      maxQueuedPerKey: 10,
      maxQueueWaitMs: 60_000,
    });
    const first = (await s.acquire('a')).release;
    const order: string[] = [];
    const wait = (k: string) => s.acquire(k).then(({ release }) => (order.push(k), release()));
    const all = [wait('a'), wait('a'), wait('a'), wait('b'), wait('c')];
    first();
    await Promise.all(all);
    expect(order).toEqual(['a', 'b', 'c', 'a', 'a']);
  });

  it('serves the caller that used least run time first: a busy flooder waits behind an occasional caller', async () => {
    const s = new FairScheduler({
      capacity: 1,
      lowCapacity: 0,
      maxPerKey: 1,
      maxQueuedPerKey: 10,
      maxQueueWaitMs: 60_000,
    });
    const first = (await s.acquire('flood')).release;
    await new Promise((r) => setTimeout(r, 30)); // the flooder keeps the slot a while
    const order: string[] = [];
    const wait = (k: string) => s.acquire(k).then(({ release }) => (order.push(k), release()));
    // the flooder queued first, yet the calm caller goes first: it used no run time lately
    const all = [wait('flood'), wait('flood'), wait('calm')];
    first();
    await Promise.all(all);
    expect(order).toEqual(['calm', 'flood', 'flood']);
  });

  it('refuses past the per-caller queue, after the wait, and when the client leaves', async () => {
    const s = new FairScheduler({ capacity: 1, lowCapacity: 0, maxPerKey: 1, maxQueuedPerKey: 1, maxQueueWaitMs: 50 });
    const held = (await s.acquire('a')).release;
    const waiting = s.acquire('a');
    await expect(s.acquire('a')).rejects.toMatchObject({ reason: 'queue-full' });
    await expect(waiting).rejects.toBeInstanceOf(AdmissionError);
    await expect(waiting).rejects.toMatchObject({ reason: 'queue-timeout' });
    const abort = new AbortController();
    const left = s.acquire('b', abort.signal);
    abort.abort();
    await expect(left).rejects.toMatchObject({ reason: 'aborted' });
    held();
    held(); // idempotent
    expect(s.stats()).toEqual({ running: 0, queued: 0, keys: 0 });
  });

  const busy = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("gives a caller over its share of run time the low-priority lane's slots only: the calm caller's run starts at once", async () => {
    const s = new FairScheduler({
      capacity: 1,
      lowCapacity: 1,
      maxPerKey: 1,
      maxQueuedPerKey: 10,
      maxQueueWaitMs: 60_000,
    });
    (await s.acquire('calm')).release();
    const first = await s.acquire('flood');
    expect(first.low).toBe(false); // not over its share yet
    await busy(30);
    first.release();
    const flood = await s.acquire('flood');
    expect(flood.low).toBe(true);
    // the flood holds a slot, yet the calm caller's run starts now, in the normal lane
    const calm = await s.acquire('calm');
    expect(calm.low).toBe(false);
    // the flood's next run waits for its own lane (one slot per caller), never for the normal slot
    const next = s.acquire('flood');
    calm.release();
    flood.release();
    expect((await next).low).toBe(true);
    (await next).release();
    expect(s.stats()).toEqual({ running: 0, queued: 0, keys: 0 });
  });

  it('without the lane the flood holds the normal slot and the calm caller waits behind it', async () => {
    const s = new FairScheduler({
      capacity: 1,
      lowCapacity: 0,
      maxPerKey: 1,
      maxQueuedPerKey: 10,
      maxQueueWaitMs: 60_000,
    });
    (await s.acquire('calm')).release();
    const first = await s.acquire('flood');
    await busy(30);
    first.release();
    const flood = await s.acquire('flood');
    expect(flood.low).toBe(false);
    let calmStarted = false;
    const calm = s.acquire('calm').then((g) => ((calmStarted = true), g));
    await busy(10);
    expect(calmStarted).toBe(false);
    flood.release();
    (await calm).release();
  });
});
