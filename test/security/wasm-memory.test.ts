// Hazard: WebAssembly.Memory lives outside the V8 heap: on raw isolated-vm it grew to ~2 GB of host
// RSS under a 64 MB limit. Layers: the policy (no-wasm-threads); hardenGlobals.ts deletes
// WebAssembly before user code runs; the holder's RSS watchdogs (sessionHost.ts, holderPool.ts)
// would catch any memory outside the heap that is still reachable.
import { describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { BYPASS, expectHealthy, expectPolicy, rt } from './helpers.js';

describe('WebAssembly.Memory growth', () => {
  it('is blocked by the policy', async () => {
    expectPolicy(
      await run('const m = new WebAssembly.Memory({ initial: 1, maximum: 65536 }); m.grow(30000)'),
      'no-wasm-threads',
    );
  });

  it('WebAssembly is not on the global object when the policy is bypassed', async () => {
    const r = await run(
      `${BYPASS} [typeof G[${rt('WebAssembly')}], Object.getOwnPropertyNames(G).filter((n) => /wasm|assembly/i.test(n))]`,
    );
    expect(r.value).toEqual(['undefined', []]);
  });

  it('code built at run time that names WebAssembly gets a ReferenceError', async () => {
    await using box = await createSandbox({ memoryLimitMb: 64, timeoutMs: 3000 });
    const r = await box.run(
      `${BYPASS} F('const m = new WebAssembly.Memory({ initial: 1, maximum: 32768 }); m.grow(32000); return m.buffer.byteLength')()`,
    );
    expect(r.error?.type).toBe('RUNTIME_ERROR');
    expect(r.error?.name).toBe('ReferenceError');
    expect(r.error?.message).toMatch(/WebAssembly is not defined/);
    await expectHealthy(box);
  });
});
