// Hazard: a microtask flood (promise callbacks that enqueue more) runs inside one microtask
// checkpoint and never yields. Layers: the host deadline disposes the isolate (isolatedVmSession.ts).
import { describe, it } from 'vitest';
import { expectTimeoutAttack } from './helpers.js';

describe('cpu-microtask-flood', () => {
  it('Promise.then re-arming itself' + ': TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack('const f = () => Promise.resolve().then(f); f(); await new Promise(() => {})');
  });
  it('two promise chains feeding each other' + ': TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack(
      'let a, b; a = () => Promise.resolve().then(b); b = () => Promise.resolve().then(a); a(); await new Promise(() => {})',
    );
  });
  it('a flood started but not awaited' + ': TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack('const f = () => Promise.resolve().then(f); f(); 1');
  });
  it('thenables adopted forever' + ': TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack('const t = { then(r) { r(t) } }; await t');
  });
});
