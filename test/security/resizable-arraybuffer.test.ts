// Hazard: a resizable ArrayBuffer (`new ArrayBuffer(n, { maxByteLength })` + `resize`) grows
// outside the V8 heap: ~2 GB of host RSS under a 64 MB limit on raw isolated-vm. Layers:
// hardenGlobals.ts removes resize/transfer and wraps the constructor so the option is ignored;
// ArrayBuffer allocations count against isolated-vm's limit (RangeError past it); the holder's
// RSS watchdogs catch anything else.
import { describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { BYPASS, expectHealthy, rt } from './helpers.js';

describe('a resizable ArrayBuffer', () => {
  it('cannot be made: maxByteLength is ignored and resize/transfer do not exist', async () => {
    const r = await run(
      `const b = new ArrayBuffer(8, { maxByteLength: 2 ** 32 }); [b.resizable, b.maxByteLength, typeof b.resize, typeof b.transfer, typeof b.transferToFixedLength]`,
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual([false, 8, 'undefined', 'undefined', 'undefined']);
  });

  it('the original constructor is not reachable through the prototype, species or a runtime key', async () => {
    const r = await run(
      `${BYPASS} const AB = G.ArrayBuffer; const P = AB[${rt('prototype')}];
       const viaProto = P[${rt('constructor')}];
       const viaView = new Uint8Array(4).buffer[${rt('constructor')}];
       const viaSlice = new AB(8).slice(0, 4);
       const made = [new viaProto(8, { maxByteLength: 1e9 }), new viaView(8, { maxByteLength: 1e9 }), Reflect.construct(AB, [8, { maxByteLength: 1e9 }])];
       [viaProto === AB, viaView === AB, viaSlice.resizable, made.map((b) => b.resizable), typeof P[${rt('resize')}], typeof P[${rt('transfer')}]]`,
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual([true, true, false, [false, false, false], 'undefined', 'undefined']);
  });

  it('ordinary ArrayBuffer use still works (subclassing, isView, typed arrays)', async () => {
    const r = await run(
      'class B extends ArrayBuffer {}; const b = new B(16); [b.byteLength, b instanceof ArrayBuffer, ArrayBuffer.isView(new Uint8Array(b)), new Float64Array(b).length]',
    );
    expect(r.value).toEqual([16, true, true, 2]);
  });

  it('a buffer larger than the limit is a RangeError, not host memory', async () => {
    await using box = await createSandbox({ memoryLimitMb: 64, timeoutMs: 3000 });
    const before = process.memoryUsage.rss();
    const r = await box.run('new ArrayBuffer(2 ** 31).byteLength');
    expect(r.error?.type).toBe('RUNTIME_ERROR');
    expect(r.error?.name).toBe('RangeError');
    expect(r.error?.message).toMatch(/Array buffer allocation failed/);
    expect(process.memoryUsage.rss() - before).toBeLessThan(100 * 1048576);
    await expectHealthy(box);
  });
});
