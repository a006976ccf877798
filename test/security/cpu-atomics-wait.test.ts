// Hazard: Atomics.wait blocks the isolate's thread in a futex that termination cannot reach.
// Layers: the policy (no-wasm-threads); hardenGlobals.ts deletes Atomics and SharedArrayBuffer;
// the other ways to block (busy-waiting on the clock, a wait that never resolves) end at the deadline.
import { describe, expect, it } from 'vitest';
import { run } from '../../src/index.js';
import { BYPASS, expectHealthy, expectPolicy, expectTimeoutAttack, rt } from './helpers.js';

describe('cpu-atomics-wait', () => {
  it('Atomics.wait is blocked by the policy', async () => {
    expectPolicy(await run('Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)'), 'no-wasm-threads');
  });

  it('bypassed: there is no Atomics to wait with (TypeError), and the host is healthy', async () => {
    const r = await run(`${BYPASS} G[${rt('Atomics')}].wait(new Int32Array(4), 0, 0)`);
    expect(r.error?.type).toBe('RUNTIME_ERROR');
    expect(r.error?.name).toBe('TypeError');
    await expectHealthy();
  });

  it('busy-waiting on the clock instead: TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack('const end = Date.now() + 1e9; while (Date.now() < end) {}');
  });

  it('waiting on a promise nobody resolves: TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack('await new Promise(() => {})');
  });
});
