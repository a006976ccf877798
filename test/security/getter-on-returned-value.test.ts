// Hazard: copying a result out runs guest code without a deadline: a getter on the returned value
// that loops forever hung the host's copy. Layers: the prelude serializes the value inside the
// isolate, under the run's deadline, and labels accessors "[Getter]" without calling them
// (prelude/serialize/writeJson.ts); only a JSON string crosses to the host (docs/architecture.md).
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { BYPASS, expectHealthy, expectWithinDeadline, rt, timed } from './helpers.js';

const TIMEOUT = 1500;

describe('a getter on the returned value', () => {
  it('is labelled, never invoked, wherever it sits in the value', async () => {
    await using box = await createSandbox({ timeoutMs: TIMEOUT });
    const cases: Array<[string, unknown]> = [
      ['({ a: 1, get b() { while (true) {} } })', { a: 1, b: '[Getter]' }],
      ['({ outer: { get deep() { while (true) {} } } })', { outer: { deep: '[Getter]' } }],
      ['({ get s() { while (true) {} }, set s(v) {} })', { s: '[Getter/Setter]' }],
      ['result = { get r() { while (true) {} } }', { r: '[Getter]' }],
    ];
    for (const [code, value] of cases) {
      const { r } = await timed(box, code);
      expect(r.error, code).toBeUndefined();
      expect(r.value, code).toEqual(value);
    }
    await expectHealthy(box);
  });

  it('a getter on a prototype is not an own property and is not serialized', async () => {
    await using box = await createSandbox({ timeoutMs: TIMEOUT });
    const r = await box.run(`class A { get loop() { while (true) {} } }; const a = new A(); a.x = 1; a`);
    expect(r.value).toEqual({ x: 1 });
    await expectHealthy(box);
  });

  it('an accessor on an array index is read like an element: under the deadline, TIMEOUT', async () => {
    // the serializer reads array elements by index (prelude/serialize/writeJson.ts), so this getter
    // does run, but inside the isolate and under the run's deadline
    await using box = await createSandbox({ timeoutMs: TIMEOUT });
    const { r, ms } = await timed(
      box,
      'const arr = [1, 2]; Object.defineProperty(arr, 1, { get() { while (true) {} } }); arr',
    );
    expect(r.error?.type).toBe('TIMEOUT');
    expectWithinDeadline(ms, TIMEOUT);
    await expectHealthy(box);
  });

  it('a getter the guest itself calls while building the value ends at the deadline', async () => {
    await using box = await createSandbox({ timeoutMs: TIMEOUT });
    const { r, ms } = await timed(box, 'const o = { get b() { while (true) {} } }; ({ copy: o.b })');
    expect(r.error?.type).toBe('TIMEOUT');
    expectWithinDeadline(ms, TIMEOUT);
    await expectHealthy(box);
  });

  it('a getter planted on Object.prototype through a runtime key does not reach the host', async () => {
    await using box = await createSandbox({ timeoutMs: TIMEOUT });
    const r = await box.run(
      `${BYPASS} const P = G.Object[${rt('prototype')}]; G.Object[${rt('defineProperty')}](P, 'evil', { get() { while (true) {} }, configurable: true }); ({ a: 1 })`,
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual({ a: 1 });
    expect(Object.prototype).not.toHaveProperty('evil');
    await expectHealthy(box);
  });
});
