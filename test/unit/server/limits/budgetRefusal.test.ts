import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestContext } from '../../../../src/server/context.js';
import { budget } from '../../../../src/server/limits/budget.js';
import { FairScheduler } from '../../../../src/server/limits/fairScheduler.js';
import { RefusalPacer } from '../../../../src/server/limits/refusalPacer.js';
import { createMemoryStore } from '../../../../src/server/store/memoryStore.js';
import type { SharedStore } from '../../../../src/server/store/sharedStore.js';

/** A store that counts what the budget asks of it (the memory store does the counting). */
function countingStore(): { store: SharedStore; spends: () => number } {
  const inner = createMemoryStore();
  let spends = 0;
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'kind') return 'redis'; // the budget then keeps its own local fallback apart
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (prop === 'spend' && typeof v === 'function')
        return (...args: unknown[]) => (spends++, (v as (...a: unknown[]) => unknown).apply(target, args));
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  }) as SharedStore;
  return { store, spends: () => spends };
}

const ctx = (key: string) =>
  ({
    request: new Request('http://sbirtools.invalid/v1/run', { method: 'POST' }),
    route: { isRun: () => true },
    keyId: key,
    log: {},
  }) as unknown as RequestContext;

afterEach(() => vi.useRealTimers());

describe('budget: a caller over its per-minute limit', () => {
  it('is refused without a store round trip until its Retry-After, then asks the store again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { store, spends } = countingStore();
    const scheduler = new FairScheduler({
      capacity: 4,
      lowCapacity: 0,
      maxPerKey: 4,
      maxQueuedPerKey: 10,
      maxQueueWaitMs: 1_000,
    });
    const mw = budget(
      { maxConcurrentPerKey: 4, runsPerMinutePerKey: 3, storeWaitMs: 5_000 },
      store,
      scheduler,
      // answered at once: this test is about the store not being asked (refusalPacer.test.ts holds them)
      new RefusalPacer({ maxRefusalHoldMs: 0, maxHeldRefusals: 0 }),
      () => {},
    );
    const ok = () => Promise.resolve(new Response('ran'));
    // the budget frees a run's slots when its answer's body has been read
    const status = async (r: Promise<Response>) => {
      const res = await r;
      await res.text();
      return res.status;
    };
    for (let i = 0; i < 3; i++) expect(await status(mw(ctx('flood'), ok))).toBe(200);
    const first = await mw(ctx('flood'), ok);
    expect(first.status).toBe(429);
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    const asked = spends();
    // a flood of refused requests: none reaches the store
    for (let i = 0; i < 100; i++) expect((await mw(ctx('flood'), ok)).status).toBe(429);
    expect(spends()).toBe(asked);
    // another caller is not affected
    expect(await status(mw(ctx('calm'), ok))).toBe(200);
    // past the Retry-After the oldest run has left the window: the store is asked, and admits it
    vi.setSystemTime(Date.now() + 61_000);
    expect(await status(mw(ctx('flood'), ok))).toBe(200);
    expect(spends()).toBe(asked + 2);
  });
});
