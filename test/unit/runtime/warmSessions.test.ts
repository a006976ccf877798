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

  it('warms a spare before its first run, and a spare whose warm-up failed is disposed, never handed out', async () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    let fail = false;
    const warm = new WarmSessions(
      async () =>
        ({
          session: {
            alive: true,
            warmUp: async () => {
              calls.push('warmUp');
              if (fail) throw new Error('warm-up questions failed');
              return true;
            },
            run: async () => void calls.push('run'),
            dispose: () => void calls.push('dispose'),
          },
          dataset: undefined,
        }) as unknown as Built,
      () => false,
    );
    expect(await warm.take(spec)).toBeUndefined();
    await vi.runAllTimersAsync();
    expect(await warm.take(spec)).toBeDefined();
    expect(calls).toEqual(['warmUp', 'run']);
    fail = true;
    calls.length = 0;
    await vi.runAllTimersAsync();
    expect(await warm.take(spec)).toBeUndefined();
    expect(calls).toEqual(['warmUp', 'dispose']);
    warm.disposeAll();
  });

  it('does not warm spares when the warm-up is off (SBIRTOOLS_WARM_SPARES=0)', async () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const warm = new WarmSessions(
      async () =>
        ({
          session: {
            alive: true,
            warmUp: async () => (calls.push('warmUp'), true),
            run: async () => void calls.push('run'),
            dispose: () => undefined,
          },
          dataset: undefined,
        }) as unknown as Built,
      () => false,
      true,
      false,
    );
    await warm.take(spec);
    await vi.runAllTimersAsync();
    expect(await warm.take(spec)).toBeDefined();
    expect(calls).toEqual(['run']);
    warm.disposeAll();
  });
});
