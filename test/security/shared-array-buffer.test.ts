// Hazard: a SharedArrayBuffer returned as a result stayed shared with guest code still writing to
// it, and a growable SharedArrayBuffer grew to ~2 GB outside the heap. Layers: the policy
// (no-wasm-threads); hardenGlobals.ts deletes SharedArrayBuffer (and WebAssembly, whose shared
// Memory is the other way to make one); results leave as a JSON snapshot, never as memory.
import { describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { BYPASS, expectHealthy, expectPolicy, rt } from './helpers.js';

describe('SharedArrayBuffer', () => {
  it('is blocked by the policy', async () => {
    expectPolicy(
      await run('const s = new SharedArrayBuffer(8, { maxByteLength: 2 ** 31 }); s.grow(2 ** 31); s'),
      'no-wasm-threads',
    );
  });

  it('does not exist in the isolate when the policy is bypassed', async () => {
    await using box = await createSandbox({ timeoutMs: 3000 });
    const r = await box.run(
      `${BYPASS} [typeof G[${rt('SharedArrayBuffer')}], typeof G[${rt('WebAssembly')}], typeof G[${rt('Atomics')}]]`,
    );
    expect(r.value).toEqual(['undefined', 'undefined', 'undefined']);
    const made = await box.run(`${BYPASS} F('return new SharedArrayBuffer(8, { maxByteLength: 2 ** 31 })')()`);
    expect(made.error?.name).toBe('ReferenceError');
    await expectHealthy(box);
  });

  it('a returned buffer or typed array is a JSON snapshot: later guest writes cannot reach the host', async () => {
    await using box = await createSandbox({ timeoutMs: 3000 });
    const r = await box.run(
      'var live = new Int32Array(4); live[0] = 7; Promise.resolve().then(() => { live[0] = 99 }); live',
    );
    expect(r.value).toEqual([7, 0, 0, 0]);
    const buf = await box.run('live.buffer');
    expect(buf.value).toBe('[ArrayBuffer 16 bytes]');
    await box.run('live[1] = 5');
    expect(r.value).toEqual([7, 0, 0, 0]);
    expect(ArrayBuffer.isView(r.value)).toBe(false);
  });
});
