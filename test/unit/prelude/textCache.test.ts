// The session's text page cache (prelude/data/textCache.ts), as pure logic: most-recently-used
// eviction past the budget, weak pages beyond the idle budget after a job, and pages taken back from
// a WeakRef that still count against the budget until the job ends.
import { describe, expect, test } from 'vitest';
import { TextCache, textBudgets, type CachedPage, type Slot } from '../../../prelude/data/textCache.js';

const slot = (): Slot => ({ page: null, weak: null, stamp: 0, derefJob: 0 });
const page = (bytes: number): CachedPage => ({ rows: [], bytes });
/** Lets the end-of-job microtask run. */
const endOfJob = () => new Promise<void>((r) => setTimeout(r, 0));

describe('TextCache', () => {
  test('budgets follow the memory limit', () => {
    expect(textBudgets(512)).toEqual({ budgetBytes: 0.75 * 512 * 2 ** 20, idleBytes: Math.floor(0.6 * 512 * 2 ** 20) });
    expect(textBudgets(undefined).budgetBytes).toBe(0.75 * 128 * 2 ** 20);
  });

  test('past the budget the page used just before the current one is dropped (MRU)', () => {
    const c = new TextCache(100, 100);
    const s = [slot(), slot(), slot(), slot()];
    const p = s.map(() => page(30));
    for (let i = 0; i < 4; i++) c.hold(s[i]!, p[i]!);
    expect(s.map((x) => x.page !== null)).toEqual([true, true, false, true]);
    expect(c.bytesHeld).toBe(90);
    expect(c.lookup(s[2]!)).toBeNull();
    expect(c.lookup(s[0]!)).toBe(p[0]);
  });

  test('after a job, pages beyond the idle budget are kept weakly and come back on lookup', async () => {
    const c = new TextCache(100, 50);
    const s = [slot(), slot(), slot()];
    const p = s.map(() => page(30)); // the test holds them: the WeakRefs stay alive
    for (let i = 0; i < 3; i++) c.hold(s[i]!, p[i]!);
    await endOfJob();
    expect(s.map((x) => [x.page !== null, x.weak !== null])).toEqual([
      [true, false],
      [false, true],
      [false, true],
    ]);
    expect(c.bytesHeld).toBe(30);
    expect(c.lookup(s[2]!)).toBe(p[2]);
    expect(s[2]!.page).toBe(p[2]);
    expect(c.bytesHeld).toBe(60);
  });

  test('a page taken back from its WeakRef and dropped again counts until the job ends', async () => {
    const c = new TextCache(100, 30);
    const s = Array.from({ length: 7 }, slot);
    const p = s.map(() => page(30));
    c.hold(s[0]!, p[0]!);
    c.hold(s[1]!, p[1]!);
    c.hold(s[3]!, p[3]!);
    await endOfJob(); // s0 strong, s1 and s3 weak
    expect(c.lookup(s[1]!)).toBe(p[1]); // deref: V8 keeps p1 alive until this job ends
    c.hold(s[4]!, p[4]!);
    c.hold(s[5]!, p[5]!); // drops s4
    expect(c.lookup(s[3]!)).toBe(p[3]); // drops s5
    expect(s.map((x) => x.page !== null)).toEqual([true, true, false, true, false, false, false]);
    c.hold(s[6]!, p[6]!);
    // s3 and then s1 are dropped but still pinned for this job, so s0 goes too to stay within 100
    expect(s.map((x) => x.page !== null)).toEqual([false, false, false, false, false, false, true]);
    await endOfJob();
    c.hold(s[2]!, p[2]!);
    c.hold(s[4]!, p[4]!);
    expect(c.bytesHeld).toBe(90); // a new job: nothing pinned any more
  });
});
