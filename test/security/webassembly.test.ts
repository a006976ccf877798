// Hazard: WebAssembly brings JIT attack surface, memory outside the heap (Memory, Table), shared
// memory (threads) and async compilation that never times out on raw isolated-vm. Layers: the
// policy (no-wasm-threads); hardenGlobals.ts deletes WebAssembly before user code runs.
import { describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { BYPASS, expectHealthy, expectPolicy, rt } from './helpers.js';

const MODULE = '[0, 97, 115, 109, 1, 0, 0, 0]'; // the smallest valid wasm module

describe('WebAssembly', () => {
  for (const code of [
    `new WebAssembly.Module(new Uint8Array(${MODULE}))`,
    `await WebAssembly.compile(new Uint8Array(${MODULE}))`,
    `await WebAssembly.instantiate(new Uint8Array(${MODULE}))`,
    'new WebAssembly.Memory({ initial: 1, maximum: 65536, shared: true })',
    "new WebAssembly.Table({ initial: 1, element: 'anyfunc' })",
    'const W = WebAssembly; W.validate(new Uint8Array(8))',
  ]) {
    it(`${code.slice(0, 40)}…: POLICY_VIOLATION`, async () => {
      expectPolicy(await run(code), 'no-wasm-threads');
    });
  }

  it('bypassed: WebAssembly does not exist, under any name built at run time', async () => {
    await using box = await createSandbox();
    const r = await box.run(
      `${BYPASS} [typeof G[${rt('WebAssembly')}], Object.getOwnPropertyNames(G).filter((n) => /^web|assembly|wasm/i.test(n)), F('return typeof WebAssembly')()]`,
    );
    expect(r.value).toEqual(['undefined', [], 'undefined']);
    const call = await box.run(`${BYPASS} await F('return WebAssembly.instantiate(new Uint8Array(${MODULE}))')()`);
    expect(call.error?.type).toBe('RUNTIME_ERROR');
    expect(call.error?.name).toBe('ReferenceError');
    await expectHealthy(box);
  });
});
