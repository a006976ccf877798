// Hazard: a synchronous infinite loop. Layers: isolated-vm's timeout and the host deadline
// (isolatedVmSession.ts) terminate it; the holder is SIGKILLed at deadline + 500 ms if it does not stop.
import { describe, it } from 'vitest';
import { expectTimeoutAttack } from './helpers.js';

describe('cpu-sync-loop', () => {
  it('while (true) {}' + ': TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack('while (true) {}');
  });
  it('for (;;) with a counter' + ': TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack('let i = 0; for (;;) i++');
  });
  it('a loop inside an escaped Arquero callback' + ': TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack('award_data.derive({ x: aq.escape(() => { while (true) {} }) }).numRows()');
  });
  it('a loop inside a function built at run time' + ': TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack("var __k = ['constr', 'uctor'].join(''); (() => 0)[__k]('while (true) {}')()");
  });
  it('deep recursion caught and retried forever' + ': TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack('function f() { try { return f() } catch { return f() } } f()');
  });
});
