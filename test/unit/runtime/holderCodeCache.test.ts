// The holder's warm code cache (src/runtime/holder/holderCodeCache.ts): after a run and
// KEEP_WARM_IDLE_MS without one, the code check's warm programs are checked and the loader asked
// to write its cache again, once per process; never while a run is in flight or the process is
// busy, never when the cache read was warm, nothing without the loader. Timers are faked: nothing
// here is timed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HolderCodeCacheKeeper, KEEP_WARM_IDLE_MS } from '../../../src/runtime/holder/holderCodeCache.js';

const KEY = Symbol.for('sbirtools.holderCodeCache');
const g = globalThis as Record<symbol, unknown>;

afterEach(() => {
  delete g[KEY];
  vi.useRealTimers();
});

/** A loader's global whose calls are recorded in `calls`. */
function loader(calls: string[], warm = false) {
  const state = { warm };
  g[KEY] = {
    get warm() {
      return state.warm;
    },
    keepWarm() {
      calls.push('keepWarm');
      state.warm = true;
      return true;
    },
  };
}

describe('the holder warm code cache keeper', () => {
  it('writes once, after the warm checks, when the process has been idle since a run', async () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    loader(calls);
    let idle = 0;
    let running = true;
    const keeper = new HolderCodeCacheKeeper(
      () => idle,
      () => running,
      () => calls.push('warmChecks'),
    );
    keeper.afterRun();
    await vi.advanceTimersByTimeAsync(KEEP_WARM_IDLE_MS * 5);
    expect(calls).toEqual([]); // a run in flight
    running = false;
    await vi.advanceTimersByTimeAsync(KEEP_WARM_IDLE_MS * 5);
    expect(calls).toEqual([]); // runs kept coming
    idle = Infinity;
    await vi.advanceTimersByTimeAsync(KEEP_WARM_IDLE_MS);
    expect(calls).toEqual(['warmChecks', 'keepWarm']);
    keeper.afterRun();
    await vi.advanceTimersByTimeAsync(KEEP_WARM_IDLE_MS * 5);
    expect(calls).toEqual(['warmChecks', 'keepWarm']);
  });

  it('does nothing when the cache read was warm, or without the loader', async () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    loader(calls, true);
    const keeper = new HolderCodeCacheKeeper(
      () => Infinity,
      () => false,
      () => calls.push('warmChecks'),
    );
    keeper.afterRun();
    await vi.advanceTimersByTimeAsync(KEEP_WARM_IDLE_MS * 5);
    delete g[KEY];
    const bare = new HolderCodeCacheKeeper(
      () => Infinity,
      () => false,
      () => calls.push('warmChecks'),
    );
    bare.afterRun();
    await vi.advanceTimersByTimeAsync(KEEP_WARM_IDLE_MS * 5);
    expect(calls).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('writes the cache even when a warm check throws', async () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    loader(calls);
    const keeper = new HolderCodeCacheKeeper(
      () => Infinity,
      () => false,
      () => {
        throw new Error('a program the check refuses');
      },
    );
    keeper.afterRun();
    await vi.advanceTimersByTimeAsync(KEEP_WARM_IDLE_MS);
    expect(calls).toEqual(['keepWarm']);
  });
});
