import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestContext } from '../../../../src/server/context.js';
import { budget } from '../../../../src/server/limits/budget.js';
import { FairScheduler } from '../../../../src/server/limits/fairScheduler.js';
import { RefusalPacer } from '../../../../src/server/limits/refusalPacer.js';
import { refuseEarlyAtHead } from '../../../../src/server/limits/refuseEarly.js';
import { createMemoryStore } from '../../../../src/server/store/memoryStore.js';
import type { SharedStore } from '../../../../src/server/store/sharedStore.js';

/** A memory store that counts the budget's questions (spend + acquireSlot). */
function countingStore(): { store: SharedStore; asked: () => number } {
  const inner = createMemoryStore();
  let asked = 0;
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if ((prop === 'spend' || prop === 'acquireSlot') && typeof v === 'function')
        return (...args: unknown[]) => (asked++, (v as (...a: unknown[]) => unknown).apply(target, args));
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  }) as SharedStore;
  return { store, asked: () => asked };
}

const ctx = (key: string, signal?: AbortSignal, route: Record<string, unknown> = { isRun: () => true }) =>
  ({
    request: new Request('http://sbirtools.invalid/v1/run', { method: 'POST', ...(signal ? { signal } : {}) }),
    route,
    keyId: key,
    log: {},
  }) as unknown as RequestContext;

/** A budget of one run per minute whose early refusals are held up to `holdMs`. */
const oneRunPerMinute = (holdMs: number) =>
  budget(
    { maxConcurrentPerKey: 8, runsPerMinutePerKey: 1, storeWaitMs: 60_000 },
    createMemoryStore(),
    new FairScheduler({ capacity: 8, lowCapacity: 0, maxPerKey: 8, maxQueuedPerKey: 8, maxQueueWaitMs: 60_000 }),
    new RefusalPacer({ maxRefusalHoldMs: holdMs, maxHeldRefusals: 100 }),
    () => {},
  );

/** A run that answers when told to (its concurrency slot is held until then). */
function pendingRun() {
  let finish!: () => void;
  const answered = new Promise<void>((r) => (finish = r));
  return { next: () => answered.then(() => new Response('ran')), finish };
}

function setup(pacerLimits = { maxRefusalHoldMs: 5_000, maxHeldRefusals: 100 }, maxConcurrentPerKey = 1) {
  const { store, asked } = countingStore();
  const scheduler = new FairScheduler({
    capacity: 8,
    lowCapacity: 0,
    maxPerKey: 8,
    maxQueuedPerKey: 8,
    maxQueueWaitMs: 60_000,
  });
  const pacer = new RefusalPacer(pacerLimits);
  const limited: string[] = [];
  const mw = budget(
    { maxConcurrentPerKey, runsPerMinutePerKey: 1000, storeWaitMs: 60_000 },
    store,
    scheduler,
    pacer,
    (r) => limited.push(r),
  );
  return { mw, pacer, asked, limited };
}

/** Resolves to 'pending' when `p` has not settled after the microtasks and timers due now have run. */
async function settled<T>(p: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([p, vi.advanceTimersByTimeAsync(0).then(() => 'pending' as const)]);
}

afterEach(() => vi.useRealTimers());

describe('RefusalPacer: a caller that comes back before its Retry-After', () => {
  it('is refused again without asking the store, its refusal held until the Retry-After; other callers are not held', async () => {
    vi.useFakeTimers();
    const { mw, asked, limited, pacer } = setup();
    const running = pendingRun();
    const first = mw(ctx('flood'), running.next); // holds the caller's only concurrency slot
    const refused = await mw(ctx('flood'), running.next);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    const askedBefore = asked();
    // back at once, ignoring Retry-After: 1
    const early = mw(ctx('flood'), () => Promise.resolve(new Response('must not run')));
    expect(await settled(early)).toBe('pending');
    expect(pacer.held).toBe(1);
    // another caller meanwhile: admitted, not held
    const calm = await mw(ctx('calm'), () => Promise.resolve(new Response('calm ran')));
    expect(await calm.text()).toBe('calm ran');
    await vi.advanceTimersByTimeAsync(999);
    expect(await settled(early)).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    const answer = await early;
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(answer.headers.get('sbirtools-code-ran')).toBe('false');
    expect(answer.headers.get('connection')).toBeNull();
    const body = (await answer.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('RATE_LIMITED');
    expect(body.error.message).toMatch(/came back before the Retry-After/);
    // the store was asked only for the calm caller (spend + slot)
    expect(asked()).toBe(askedBefore + 2);
    expect(limited).toEqual(['concurrency', 'early']);
    expect(pacer.held).toBe(0);
    // past the Retry-After the store decides again (the slot is still held: refused, by the store)
    const again = await mw(ctx('flood'), running.next);
    expect(again.status).toBe(429);
    expect(asked()).toBe(askedBefore + 4);
    running.finish();
    await (await first).text();
  });

  it('holds at most maxHeldRefusals: the next early caller is answered at once with Connection: close', async () => {
    vi.useFakeTimers();
    const { mw, pacer } = setup({ maxRefusalHoldMs: 5_000, maxHeldRefusals: 2 });
    const running = pendingRun();
    void mw(ctx('flood'), running.next);
    expect((await mw(ctx('flood'), running.next)).status).toBe(429);
    const held = [mw(ctx('flood'), running.next), mw(ctx('flood'), running.next)];
    expect(await settled(held[0]!)).toBe('pending');
    expect(pacer.held).toBe(2);
    const third = await mw(ctx('flood'), running.next);
    expect(third.status).toBe(429);
    expect(third.headers.get('connection')).toBe('close');
    await vi.advanceTimersByTimeAsync(1000);
    for (const r of await Promise.all(held)) {
      expect(r.status).toBe(429);
      expect(r.headers.get('connection')).toBeNull();
    }
    running.finish();
  });

  it('a held client that hangs up is let go at once (nothing waits for its deadline)', async () => {
    vi.useFakeTimers();
    const { mw, pacer } = setup();
    const running = pendingRun();
    void mw(ctx('flood'), running.next);
    expect((await mw(ctx('flood'), running.next)).status).toBe(429);
    const leaving = new AbortController();
    const early = mw(ctx('flood', leaving.signal), running.next);
    expect(await settled(early)).toBe('pending');
    leaving.abort();
    expect(((await settled(early)) as Response).status).toBe(429);
    expect(pacer.held).toBe(0);
    running.finish();
  });

  it('a per-minute refusal is held at most maxRefusalHoldMs, and says the Retry-After still left', async () => {
    vi.useFakeTimers();
    const mw = oneRunPerMinute(5_000);
    await (await mw(ctx('k'), () => Promise.resolve(new Response('ran')))).text();
    const refused = await mw(ctx('k'), () => Promise.resolve(new Response('ran')));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe(60);
    const early = mw(ctx('k'), () => Promise.resolve(new Response('ran')));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(await settled(early)).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    const answer = await early;
    expect(answer.status).toBe(429);
    expect(Number(answer.headers.get('retry-after'))).toBe(55);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/used its 1 runs/);
  });

  it("a refusal for runs in flight holds back that caller's runs, not its session creations", async () => {
    const { mw } = setup({ maxRefusalHoldMs: 0, maxHeldRefusals: 100 });
    const running = pendingRun();
    void mw(ctx('k'), running.next);
    const refused = await mw(ctx('k'), running.next);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/runs in flight/);
    // inside its Retry-After: another run is refused early, a session is created
    expect((await mw(ctx('k'), () => Promise.resolve(new Response('ran')))).status).toBe(429);
    const session = await mw(ctx('k', undefined, { chargesBudget: () => true }), () =>
      Promise.resolve(new Response('made')),
    );
    expect(session.status).toBe(200);
    running.finish();
  });

  it('each early refusal says what it meant for its own request: a run, or a session', async () => {
    vi.useFakeTimers();
    const mw = oneRunPerMinute(0);
    const session = { chargesBudget: () => true };
    const message = async (r: Response) => ((await r.json()) as { error: { message: string } }).error.message;
    await (await mw(ctx('k'), () => Promise.resolve(new Response('ran')))).text();
    // refused as a run, then back early once as a run and once opening a session
    expect(await message(await mw(ctx('k'), () => Promise.resolve(new Response('ran'))))).toMatch(
      /this code never started\.$/,
    );
    const asRun = await message(await mw(ctx('k'), () => Promise.resolve(new Response('ran'))));
    expect(asRun).toMatch(/used its 1 runs.*; this code never started\. This caller came back/);
    const asSession = await message(
      await mw(ctx('k', undefined, session), () => Promise.resolve(new Response('made'))),
    );
    expect(asSession).toMatch(/used its 1 runs.*; this session was not created\. This caller came back/);
    expect(asSession).not.toMatch(/code never started/);
  });

  it('with maxRefusalHoldMs 0 the early refusal is sent at once (still without the store)', async () => {
    vi.useFakeTimers();
    const { mw, asked } = setup({ maxRefusalHoldMs: 0, maxHeldRefusals: 100 });
    const running = pendingRun();
    void mw(ctx('flood'), running.next);
    expect((await mw(ctx('flood'), running.next)).status).toBe(429);
    const n = asked();
    for (let i = 0; i < 20; i++) expect(((await settled(mw(ctx('flood'), running.next))) as Response).status).toBe(429);
    expect(asked()).toBe(n);
    running.finish();
  });

  it('at the head: a route charged by its head is refused before the rest of the chain; others pass through', async () => {
    vi.useFakeTimers();
    const pacer = new RefusalPacer({ maxRefusalHoldMs: 0, maxHeldRefusals: 100 });
    pacer.remember('flood', 1000, 'This caller already has 1 runs in flight (the limit).', 'concurrency');
    const head = refuseEarlyAtHead(pacer, () => {});
    const reached: string[] = [];
    const next = (what: string) => () => (reached.push(what), Promise.resolve(new Response(what)));
    const run = { isRun: () => true, chargedByHead: true };
    expect((await head(ctx('flood', undefined, run), next('run'))).status).toBe(429);
    // /mcp: whether it runs code is in the body, so the head lets it through (the budget checks it)
    expect((await head(ctx('flood', undefined, { isRun: () => true }), next('mcp'))).status).toBe(200);
    // a route that costs nothing (a GET), and another caller
    expect((await head(ctx('flood', undefined, { chargedByHead: true }), next('get'))).status).toBe(200);
    expect((await head(ctx('calm', undefined, run), next('calm run'))).status).toBe(200);
    expect(reached).toEqual(['mcp', 'get', 'calm run']);
    // the Retry-After runs out: the caller goes through again
    vi.advanceTimersByTime(1000);
    expect((await head(ctx('flood', undefined, run), next('run'))).status).toBe(200);
  });
});
