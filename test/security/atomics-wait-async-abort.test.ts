// Hazard: on raw isolated-vm 5.0.4, `Atomics.waitAsync` on a SharedArrayBuffer aborted the whole
// Node process (SIGABRT). Layers: the policy (no-wasm-threads), hardenGlobals.ts (Atomics and
// SharedArrayBuffer are deleted before user code runs) and the holder process (an abort kills a
// holder, never the host: holder-death-containment.test.ts).
import { describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { BYPASS, expectHealthy, expectPolicy, rt } from './helpers.js';

const ATTACK =
  'const sab = new SharedArrayBuffer(16); const ia = new Int32Array(sab); Atomics.waitAsync(ia, 0, 0, 1000); 1';

describe('Atomics.waitAsync on a SharedArrayBuffer', () => {
  it('is blocked by the policy', async () => {
    expectPolicy(await run(ATTACK), 'no-wasm-threads');
  });

  it('finds neither Atomics nor SharedArrayBuffer on the global object when the policy is bypassed', async () => {
    const r = await run(
      `${BYPASS} [typeof G[${rt('Atomics')}], typeof G[${rt('SharedArrayBuffer')}], ${rt('Atomics')} in G]`,
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual(['undefined', 'undefined', false]);
  });

  it('gets a ReferenceError, not an abort, when code built at run time names them', async () => {
    await using box = await createSandbox({ timeoutMs: 3000 });
    const src = ATTACK.replace(/'/g, "\\'");
    const r = await box.run(`${BYPASS} F('${src}')()`);
    expect(r.error?.type).toBe('RUNTIME_ERROR');
    expect(r.error?.name).toBe('ReferenceError');
    expect(r.error?.message).toMatch(/SharedArrayBuffer is not defined/);
    await expectHealthy(box);
  });

  it('cannot reach a shared buffer through typed arrays or buffers it is allowed to make', async () => {
    const r = await run(
      `${BYPASS} const b = new Int32Array(4).buffer; [({}).toString.call(b), b[${rt('constructor')}] === G.ArrayBuffer, typeof G[${rt('WebAssembly')}]]`,
    );
    expect(r.value).toEqual(['[object ArrayBuffer]', true, 'undefined']);
    await expectHealthy();
  });
});
