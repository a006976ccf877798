// The holder's idle-time scheduler for the prelude warm-up (holder/preludeWarmer.ts), with fake
// sessions: it steps a session until it has nothing left, takes no step while a run is in flight
// and goes on once the process is idle, drops disposed sessions, and does nothing when disabled.
import { describe, expect, it, vi } from 'vitest';
import { PreludeWarmer } from '../../../src/runtime/holder/preludeWarmer.js';
import type { EngineSession } from '../../../src/runtime/engines/engineSession.js';

function fakeSession(steps: number, log: string[] = [], name = 's') {
  let left = steps;
  let alive = true;
  const session = {
    get alive() {
      return alive;
    },
    isRunning: false,
    run: async () => ({}) as never,
    dispose: () => {
      alive = false;
    },
    warmStep: async () => {
      if (!alive || left === 0) return false;
      left--;
      log.push(name);
      return left > 0;
    },
  } satisfies EngineSession;
  return { session, left: () => left };
}

describe('PreludeWarmer', () => {
  it('steps a new session in idle time until it has nothing left, then lets go of it', async () => {
    const warmer = new PreludeWarmer(() => false);
    const s = fakeSession(5);
    warmer.add(s.session);
    await vi.waitFor(() => expect(s.left()).toBe(0), { timeout: 20_000 });
    await vi.waitFor(() => expect(warmer.pending).toBe(0), { timeout: 20_000 });
  });

  it('takes no step while a run is in flight, and goes on once the process is idle', async () => {
    let busy = true;
    let checks = 0;
    const warmer = new PreludeWarmer(() => (checks++, busy));
    const log: string[] = [];
    const s = fakeSession(3, log);
    warmer.add(s.session);
    // the scheduler looks again on its timer: wait for several of its looks, not for a fixed time
    await vi.waitFor(() => expect(checks).toBeGreaterThan(3), { timeout: 20_000 });
    expect(log).toEqual([]);
    busy = false;
    await vi.waitFor(() => expect(s.left()).toBe(0), { timeout: 20_000 });
    expect(log).toEqual(['s', 's', 's']);
  });

  it('warms sessions one after another and drops one disposed meanwhile', async () => {
    const warmer = new PreludeWarmer(() => false);
    const log: string[] = [];
    const a = fakeSession(2, log, 'a');
    const b = fakeSession(2, log, 'b');
    const c = fakeSession(2, log, 'c');
    c.session.dispose();
    warmer.add(a.session);
    warmer.add(c.session);
    warmer.add(b.session);
    await vi.waitFor(() => expect(warmer.pending).toBe(0), { timeout: 20_000 });
    expect(log).toEqual(['a', 'a', 'b', 'b']);
  });

  it('does nothing when disabled (a one-shot holder, or SBIRTOOLS_WARM_PRELUDE=0)', () => {
    const warmer = new PreludeWarmer(() => false, false);
    const s = fakeSession(2);
    warmer.add(s.session);
    expect(warmer.pending).toBe(0);
    expect(s.left()).toBe(2);
  });
});
