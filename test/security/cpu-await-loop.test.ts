// Hazard: an `await` loop never returns to the host, so isolated-vm's synchronous timeout never
// fires. Layers: the host deadline races the run's promise (isolatedVmSession.ts) and disposes the isolate.
import { describe, it } from 'vitest';
import { expectTimeoutAttack } from './helpers.js';

describe('cpu-await-loop', () => {
  it('while (true) await 0' + ': TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack('while (true) { await 0 }');
  });
  it('for await over an endless async generator' + ': TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack('async function* g() { while (true) yield 1 } for await (const x of g()) {}');
  });
  it('an async function that re-awaits itself' + ': TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack('async function f() { await null; return f() } await f()');
  });
  it('await of a promise chain with busy work' + ': TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack('while (true) { await new Promise((r) => r()); for (let i = 0; i < 1e5; i++); }');
  });
});
