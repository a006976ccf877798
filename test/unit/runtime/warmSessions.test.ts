import { afterEach, describe, it, expect, vi } from 'vitest';
import { WarmSessions, type Built } from '../../../src/runtime/holder/warmSessions.js';
import { PRESETS } from '../../../schema/limits.js';
import type { SessionSpec } from '../../../src/runtime/holder/protocol.js';

const spec: SessionSpec = {
  limits: { ...PRESETS.standard },
  data: { kind: 'synthetic', cacheDir: '/tmp/x' },
  tables: [],
};

function counting(enabled?: boolean) {
  let builds = 0;
  const built = () =>
    ({
      session: { alive: true, run: async () => undefined, dispose: () => undefined },
      dataset: undefined,
    }) as unknown as Built;
  const warm = new WarmSessions(
    async () => (builds++, built()),
    () => false,
    enabled,
  );
  return { warm, builds: () => builds };
}

// Fake timers: the spare is scheduled on a timer, so advancing the clock replaces a sleep.
afterEach(() => {
  vi.useRealTimers();
});

describe('WarmSessions', () => {
  it('boots a spare in the background after a take, and hands it to the next take', async () => {
    vi.useFakeTimers();
    const { warm, builds } = counting();
    expect(await warm.take(spec)).toBeUndefined();
    vi.runAllTimers();
    expect(builds()).toBe(1);
    expect(await warm.take(spec)).toBeDefined();
    warm.disposeAll();
  });

  it('boots nothing when disabled (a one-shot holder: SBIRTOOLS_NO_SPARES=1)', async () => {
    vi.useFakeTimers();
    const { warm, builds } = counting(false);
    expect(await warm.take(spec)).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0); // nothing was scheduled
    vi.runAllTimers();
    expect(builds()).toBe(0);
    expect(await warm.count()).toBe(0);
  });

  /** A spare whose calls are recorded; `fail` makes its warm-up throw. */
  function recorded(opts: { warmUp?: boolean; idleMs?: () => number } = {}) {
    const calls: string[] = [];
    /** `wantsCache`: the engine's process has no warm code cache yet (the first spare made gives it one). */
    const state = { fail: false, wantsCache: false };
    const warm = new WarmSessions(
      async () => {
        const session = {
          alive: true,
          warmUp: async () => {
            calls.push('warmUp');
            if (state.fail) throw new Error('warm-up questions failed');
            return true;
          },
          run: async () => void calls.push('run'),
          wantsWarmCodeCache: () => state.wantsCache,
          keepWarmCodeCache: () => {
            calls.push('keepWarmCodeCache');
            state.wantsCache = false;
            return true;
          },
          dispose: () => {
            calls.push('dispose');
            session.alive = false;
          },
        };
        return { session, dataset: undefined } as unknown as Built;
      },
      () => false,
      true,
      opts.warmUp ?? true,
      opts.idleMs,
    );
    return { warm, calls, state };
  }

  it('warms a spare once idle, before its first run; a spare whose warm-up failed is disposed, never handed out', async () => {
    vi.useFakeTimers();
    const { warm, calls, state } = recorded();
    expect(await warm.take(spec)).toBeUndefined();
    await vi.runAllTimersAsync();
    expect(await warm.take(spec)).toBeDefined();
    expect(calls).toEqual(['warmUp', 'run']);
    state.fail = true;
    calls.length = 0;
    await vi.runAllTimersAsync();
    expect(await warm.take(spec)).toBeUndefined();
    expect(calls).toEqual(['warmUp', 'dispose']);
    warm.disposeAll();
  });

  it('never warms while the process is not idle, and a spare taken before its warm-up is never warmed after', async () => {
    vi.useFakeTimers();
    let idle = 0;
    const { warm, calls } = recorded({ idleMs: () => idle });
    await warm.take(spec);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toEqual([]); // runs kept coming: no warm-up
    const taken = await warm.take(spec);
    expect(taken).toBeDefined();
    idle = Infinity;
    await vi.advanceTimersByTimeAsync(5_000);
    // the next spare (booted after the take) is warmed; the taken one never is
    expect(calls).toEqual(['warmUp', 'run']);
    warm.disposeAll();
  });

  it('does not warm spares when the warm-up is off (SBIRTOOLS_WARM_SPARES=0)', async () => {
    vi.useFakeTimers();
    const { warm, calls } = recorded({ warmUp: false });
    await warm.take(spec);
    await vi.runAllTimersAsync();
    expect(await warm.take(spec)).toBeDefined();
    expect(calls).toEqual(['run']);
    warm.disposeAll();
  });

  it('with the warm-up off, warms one spare while the process has no warm code cache, and makes it from that spare', async () => {
    vi.useFakeTimers();
    const { warm, calls, state } = recorded({ warmUp: false });
    state.wantsCache = true;
    await warm.take(spec);
    await vi.runAllTimersAsync();
    expect(await warm.take(spec)).toBeDefined();
    expect(calls).toEqual(['warmUp', 'keepWarmCodeCache', 'run']);
    // the cache is made: the next spare is left cold, as before
    calls.length = 0;
    await vi.runAllTimersAsync();
    expect(await warm.take(spec)).toBeDefined();
    expect(calls).toEqual(['run']);
    warm.disposeAll();
  });
});
