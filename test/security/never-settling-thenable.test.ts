// Hazard: promise results never time out on raw isolated-vm: a never-settling promise, a thenable
// that never calls back, or one that loops when called. Layers: the host races the run against
// its deadline (isolatedVmSession.ts) and answers TIMEOUT; the prelude only awaits native promises, so
// a returned thenable that is not awaited is a value, not a wait.
import { describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { BYPASS, expectHealthy, expectPolicy, rt, timed, expectTimeoutAttack } from './helpers.js';

const TIMEOUT = 1500;

describe('promises and thenables that never settle', () => {
  for (const [name, code] of [
    ['await of a never-settling promise', 'await new Promise(() => {})'],
    ['await of a thenable that never calls back', 'await { then() {} }'],
    ['await of a thenable that loops when called', 'await { then(resolve) { while (true) {} } }'],
    ['a top-level return of a never-settling promise', 'return new Promise(() => {})'],
    [
      'a promise chain that keeps re-arming',
      'await new Promise((resolve) => { const again = () => Promise.resolve().then(again); again() })',
    ],
  ] as const) {
    it(`${name}: TIMEOUT within the deadline + 1 s`, () => expectTimeoutAttack(code, TIMEOUT));
  }

  it('a thenable returned without await is a value: its then is not called', async () => {
    await using box = await createSandbox({ timeoutMs: TIMEOUT });
    const { r } = await timed(box, '({ then() { while (true) {} }, a: 1 })');
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual({ then: '[Function then]', a: 1 });
  });

  it('async WebAssembly.instantiate is blocked by the policy and absent from the isolate', async () => {
    expectPolicy(
      await run('await WebAssembly.instantiate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))'),
      'no-wasm-threads',
    );
    const r = await run(`${BYPASS} typeof G[${rt('WebAssembly')}]`);
    expect(r.value).toBe('undefined');
    await expectHealthy();
  });
});
