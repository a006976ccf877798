import { describe, expect, it } from 'vitest';
import { AdmissionError, FairScheduler } from '../../../../src/server/limits/fairScheduler.js';

describe('FairScheduler', () => {
  it("keeps one caller to its share, so another caller's run starts at once while the first floods", async () => {
    const s = new FairScheduler({ capacity: 4, maxPerKey: 2, maxQueuedPerKey: 100, maxQueueWaitMs: 60_000 });
    const flood = Array.from({ length: 50 }, () => s.acquire('flood'));
    const granted: Array<() => void> = [];
    flood.slice(0, 2).forEach((p) => p.then((r) => granted.push(r)));
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    expect(granted).toHaveLength(2);
    expect(s.stats()).toMatchObject({ running: 2, queued: 48 });
    // another caller is not behind the 48 waiting runs
    const other = await s.acquire('other');
    expect(s.stats().running).toBe(3);
    other();
    for (const r of granted) r();
  });

  it('serves waiting callers round robin when slots free', async () => {
    const s = new FairScheduler({ capacity: 1, maxPerKey: 1, maxQueuedPerKey: 10, maxQueueWaitMs: 60_000 });
    const first = await s.acquire('a');
    const order: string[] = [];
    const wait = (k: string) => s.acquire(k).then((release) => (order.push(k), release()));
    const all = [wait('a'), wait('a'), wait('a'), wait('b'), wait('c')];
    first();
    await Promise.all(all);
    expect(order).toEqual(['a', 'b', 'c', 'a', 'a']);
  });

  it('serves the caller that used least run time first: a busy flooder waits behind an occasional caller', async () => {
    const s = new FairScheduler({ capacity: 1, maxPerKey: 1, maxQueuedPerKey: 10, maxQueueWaitMs: 60_000 });
    const first = await s.acquire('flood');
    await new Promise((r) => setTimeout(r, 30)); // the flooder keeps the slot a while
    const order: string[] = [];
    const wait = (k: string) => s.acquire(k).then((release) => (order.push(k), release()));
    // the flooder queued first, yet the calm caller goes first: it used no run time lately
    const all = [wait('flood'), wait('flood'), wait('calm')];
    first();
    await Promise.all(all);
    expect(order).toEqual(['calm', 'flood', 'flood']);
  });

  it('refuses past the per-caller queue, after the wait, and when the client leaves', async () => {
    const s = new FairScheduler({ capacity: 1, maxPerKey: 1, maxQueuedPerKey: 1, maxQueueWaitMs: 50 });
    const held = await s.acquire('a');
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

  it('marks the caller that used more than an equal share of run time, and nobody while a caller is alone', async () => {
    const s = new FairScheduler({ capacity: 2, maxPerKey: 1, maxQueuedPerKey: 10, maxQueueWaitMs: 60_000 });
    const busyFor = async (key: string, until: () => boolean) => {
      const release = await s.acquire(key);
      const t0 = Date.now();
      while (!until() && Date.now() - t0 < 60_000) await new Promise((r) => setTimeout(r, 5));
      release();
    };
    // a caller alone is never over its share, however much it runs
    const first = Date.now();
    await busyFor('flood', () => Date.now() - first >= 20);
    expect(s.overShare('flood')).toBe(false);
    // the flood holds a slot (its run in flight counts) while a calm caller runs once, briefly
    const floodHeld = await s.acquire('flood');
    const calm = await s.acquire('calm');
    calm();
    const since = Date.now();
    while (Date.now() - since < 10) await new Promise((r) => setTimeout(r, 2));
    expect(s.overShare('flood')).toBe(true);
    expect(s.overShare('calm')).toBe(false);
    floodHeld();
    expect(s.overShare('flood')).toBe(true);
  });
});
