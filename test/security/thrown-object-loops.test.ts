// Hazard: errors are copied out too: a thrown object whose `message`, `name`, `stack` or
// `toString` loops hung the host while it formatted the error. Layers: the prelude formats guest
// errors inside the isolate under the run's deadline (prelude/errors/errorInfo.ts), never calls a
// thrown plain object's toString, and the host only parses a JSON string. An unhandled rejection
// is copied by isolated-vm itself, with guest getters running outside any deadline: the run still
// ends at its deadline (isolatedVmSession.ts) and the stuck holder is replaced (holderMain.ts).
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { expectHealthy, expectWithinDeadline, timed, withPool, expectTimeoutAttack } from './helpers.js';

const TIMEOUT = 1500;

describe('a thrown object that loops', () => {
  for (const [name, code] of [
    ['a plain object with a looping message getter', "throw { get message() { while (true) {} }, name: 'X' }"],
    [
      'an Error whose message getter loops',
      "const e = new Error('x'); Object.defineProperty(e, 'message', { get() { while (true) {} } }); throw e",
    ],
    [
      'an Error whose name getter loops',
      "const e = new Error('x'); Object.defineProperty(e, 'name', { get() { while (true) {} } }); throw e",
    ],
    [
      'an Error whose stack getter loops',
      "const e = new Error('x'); Object.defineProperty(e, 'stack', { get() { while (true) {} } }); throw e",
    ],
    [
      'a Proxy whose traps loop',
      'throw new Proxy({}, { get() { while (true) {} }, getPrototypeOf() { while (true) {} } })',
    ],
    ['a rejection with a looping message, awaited', 'await Promise.reject({ get message() { while (true) {} } })'],
  ] as const) {
    it(`${name}: TIMEOUT within the deadline + 1 s`, () => expectTimeoutAttack(code, TIMEOUT));
  }

  it('a thrown plain object: its toString is never called', async () => {
    await using box = await createSandbox({ timeoutMs: TIMEOUT });
    const { r } = await timed(box, 'throw { toString() { while (true) {} } }');
    expect(r.error?.type).toBe('RUNTIME_ERROR');
    expect(r.error?.message).toMatch(/Uncaught/);
  });

  it('an unhandled rejection whose getters loop: TIMEOUT, and the holder that isolated-vm could not stop is replaced', async () => {
    await withPool(async (pool) => {
      await using box = await pool.createSandbox({ timeoutMs: TIMEOUT });
      const { r, ms } = await timed(
        box,
        "const e = new Error('x'); Object.defineProperty(e, 'message', { get() { while (true) {} } }); Promise.reject(e); 1",
      );
      expect(r.error?.type).toBe('TIMEOUT');
      expectWithinDeadline(ms, TIMEOUT);
      const next = await box.run('1 + 1');
      expect(next.value).toBe(2);
      expect(next.sessionReset).toBe(true);
    });
  });

  it("a plain unhandled rejection is the code's RUNTIME_ERROR, not an internal error", async () => {
    await using box = await createSandbox({ timeoutMs: TIMEOUT });
    const r = await box.run("print('before'); Promise.reject(new TypeError('nobody caught me')); 1");
    expect(r.error?.type).toBe('RUNTIME_ERROR');
    expect(r.error?.name).toBe('TypeError');
    expect(r.error?.message).toMatch(/Unhandled promise rejection: nobody caught me/);
    expect(r.stdout).toBe('before\n');
  });

  it('a huge message is cut, not copied whole', async () => {
    await using box = await createSandbox({ timeoutMs: 3000, memoryLimitMb: 256 });
    const r = await box.run("throw new Error('m'.repeat(20 * 1024 * 1024))");
    expect(r.error?.type).toBe('RUNTIME_ERROR');
    expect(JSON.stringify(r).length).toBeLessThan(64 * 1024);
    await expectHealthy(box);
  });
});
