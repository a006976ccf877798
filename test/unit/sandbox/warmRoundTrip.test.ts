// A session open with no run asked for sends one round trip of the host's trivial program through
// its own run path (Sandbox.warmWhenIdle; protocol.ts `warm`), answered by the session's host
// without entering the isolate: once, only after WARM_ROUND_TRIP_MS without a run, never after a run
// was asked for or close(); a run asked for meanwhile waits for it in the queue; off with
// SBIRTOOLS_WARM_IDLE=0. A pool's queue never holds it for a slot. Counted with fake timers and a
// recording backend, never timed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Sandbox, WARM_ROUND_TRIP_MS } from '../../../src/sandbox/sandbox.js';
import { emptyOutcome, type Backend } from '../../../src/runtime/holder/backend.js';
import { QueuedBackend } from '../../../src/runtime/holder/queuedBackend.js';
import type { SessionSpec, SourceRunRequest } from '../../../src/runtime/holder/protocol.js';
import { PRESETS } from '../../../schema/limits.js';

const spec: SessionSpec = { limits: { ...PRESETS.standard }, data: null, tables: [] };

const OK = {
  ...emptyOutcome('ok', ''),
  outcomeJson: JSON.stringify({ ok: true, valueText: '1', value: 1, truncatedValue: false, truncatedOutput: false }),
};

/** A backend that records each run's request; `hold` makes the next run wait until released. */
function recording() {
  const requests: SourceRunRequest[] = [];
  const events: string[] = [];
  let gate: Promise<void> | undefined;
  const backend: Backend = {
    open: async () => ({ dataset: undefined }),
    run: async (_id, req) => {
      requests.push(req);
      events.push(`start ${req.warm ? 'warm' : req.source}`);
      await gate;
      events.push(`end ${req.warm ? 'warm' : req.source}`);
      return OK;
    },
    close: async () => undefined,
    liveIsolates: async () => 0,
    shutdown: async () => undefined,
  };
  return {
    backend,
    requests,
    events,
    hold(): () => void {
      let open!: () => void;
      gate = new Promise<void>((r) => (open = r));
      return () => {
        gate = undefined;
        open();
      };
    },
  };
}

function sandboxOn(backend: Backend): Sandbox {
  const box = new Sandbox(backend, 'id', spec, 'standard', undefined, false);
  box.warmWhenIdle();
  return box;
}

afterEach(() => {
  vi.useRealTimers();
  delete process.env.SBIRTOOLS_WARM_IDLE;
});

describe("a sandbox's idle round trip", () => {
  it('goes once, after WARM_ROUND_TRIP_MS with no run, as the trivial program marked warm; the first run comes after it', async () => {
    vi.useFakeTimers();
    const r = recording();
    const box = sandboxOn(r.backend);
    await vi.advanceTimersByTimeAsync(WARM_ROUND_TRIP_MS - 1);
    expect(r.requests).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(r.requests).toEqual([{ source: '0', preset: 'standard', timeoutMs: spec.limits.timeoutMs, warm: true }]);
    await vi.advanceTimersByTimeAsync(10 * WARM_ROUND_TRIP_MS);
    expect(r.requests).toHaveLength(1);
    const result = await box.run('1');
    expect(result).toMatchObject({ ok: true, value: 1 });
    expect(r.requests.map((q) => q.warm ?? false)).toEqual([true, false]);
    await box.close();
  });

  it('a run asked for while it is in flight waits for it, then runs', async () => {
    vi.useFakeTimers();
    const r = recording();
    const box = sandboxOn(r.backend);
    const release = r.hold();
    await vi.advanceTimersByTimeAsync(WARM_ROUND_TRIP_MS);
    const answer = box.run('1');
    await vi.advanceTimersByTimeAsync(0);
    expect(r.events).toEqual(['start warm']);
    release();
    expect(await answer).toMatchObject({ ok: true, value: 1 });
    expect(r.events).toEqual(['start warm', 'end warm', 'start 1', 'end 1']);
    await box.close();
  });

  it('is not sent once a run was asked for, after close(), or with SBIRTOOLS_WARM_IDLE=0', async () => {
    vi.useFakeTimers();
    const asked = recording();
    const first = sandboxOn(asked.backend);
    await first.run('1');
    const closed = recording();
    const second = sandboxOn(closed.backend);
    await second.close();
    process.env.SBIRTOOLS_WARM_IDLE = '0';
    const off = recording();
    const third = sandboxOn(off.backend);
    await vi.advanceTimersByTimeAsync(10 * WARM_ROUND_TRIP_MS);
    expect(asked.requests.map((q) => q.source)).toEqual(['1']);
    expect(closed.requests).toEqual([]);
    expect(off.requests).toEqual([]);
    await first.close();
    await third.close();
  });

  it("never waits for a pool's busy slot", async () => {
    const r = recording();
    const release = r.hold();
    const queued = new QueuedBackend(r.backend, 1, 4);
    const busy = queued.run('a', { source: '1', preset: 'standard', timeoutMs: 1000 });
    const warm = await queued.run('b', { source: '0', preset: 'standard', timeoutMs: 1000, warm: true });
    expect(warm.status).toBe('queue_full');
    expect(queued.queued).toBe(0);
    release();
    expect((await busy).status).toBe('ok');
    expect(r.requests.map((q) => q.warm ?? false)).toEqual([false]);
  });
});
