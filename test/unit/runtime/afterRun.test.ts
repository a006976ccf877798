// What a run leaves to do (stop the memory watch, read the next run's baseline) is done after its
// reply has gone (SessionHost.afterRun): the outcome is returned first, the work follows in this
// turn's setImmediate. A run of another session that starts in between must not inherit the
// ended run's watch and baseline: it starts the watch again from a fresh baseline.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionHost } from '../../../src/runtime/holder/sessionHost.js';
import { PRESETS } from '../../../schema/limits.js';
import type { SessionSpec } from '../../../src/runtime/holder/protocol.js';

const hosts: SessionHost[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const h of hosts.splice(0)) h.closeAll();
});

/** A host with no spares and no idle warm-up (nothing runs in it but the test's runs). */
function host(): SessionHost {
  process.env.SBIRTOOLS_NO_SPARES = '1';
  process.env.SBIRTOOLS_WARM_IDLE = '0';
  const h = new SessionHost();
  delete process.env.SBIRTOOLS_NO_SPARES;
  delete process.env.SBIRTOOLS_WARM_IDLE;
  hosts.push(h);
  return h;
}

const spec: SessionSpec = { limits: { ...PRESETS.standard }, tables: [], engine: 'isolated-vm' };

type Internals = { watch: NodeJS.Timeout | undefined };
const watchOf = (h: SessionHost) => (h as unknown as Internals).watch;
const baselines = () => vi.spyOn(SessionHost.prototype as unknown as { takeBaseline(): void }, 'takeBaseline');
const nextImmediate = () => new Promise<void>((resolve) => setImmediate(resolve));

async function ok(h: SessionHost, id: string, source: string): Promise<void> {
  const r = await h.run(id, { source, preset: 'standard', timeoutMs: 30_000 });
  expect(r.status, r.message).toBe('ok');
}

describe('after a run', () => {
  it('the outcome comes back before the watch stops and the next baseline is read', async () => {
    const h = host();
    await h.open('a', spec);
    await ok(h, 'a', '1');
    await nextImmediate();
    const taken = baselines();
    await ok(h, 'a', '2');
    // returned: the watch is still on, no baseline read since the run started
    expect(watchOf(h)).toBeDefined();
    expect(taken).toHaveBeenCalledTimes(0);
    await nextImmediate();
    expect(watchOf(h)).toBeUndefined();
    expect(taken).toHaveBeenCalledTimes(1);
  });

  it('a run that starts before the ended run stopped its watch starts it again from a fresh baseline', async () => {
    const h = host();
    await h.open('a', spec);
    await h.open('b', spec);
    await ok(h, 'a', '1');
    await ok(h, 'b', '1');
    await nextImmediate();
    await ok(h, 'a', '2');
    const taken = baselines();
    // the watch of a's run is still on (its afterRun has not run): b's run must not keep it
    expect(watchOf(h)).toBeDefined();
    await ok(h, 'b', '2');
    expect(taken).toHaveBeenCalledTimes(1);
    await nextImmediate();
    expect(watchOf(h)).toBeUndefined();
  });
});
