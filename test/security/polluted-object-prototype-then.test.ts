// Hazard: a polluted Object.prototype.then turns every object into a thenable, so a promise that
// resolves with any object never settles. Layers: the policy (no-prototype-access) for the literal
// form; the host deadline ends the wait (TIMEOUT); the prelude never resolves a promise with the
// sync value (it awaits native promises only), and the pollution is confined to the session.
import { describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { BYPASS, expectHealthy, expectPolicy, expectWithinDeadline, rt, timed } from './helpers.js';

const TIMEOUT = 1500;
const POLLUTE = `${BYPASS} G.Object[${rt('prototype')}].then = function (resolve) {}; `;

describe('a polluted Object.prototype.then', () => {
  it('is blocked by the policy when written literally', async () => {
    expectPolicy(await run('Object.prototype.then = function () {}'), 'no-prototype-access');
  });

  it('a synchronous object result is still returned (it is never adopted as a thenable)', async () => {
    await using box = await createSandbox({ timeoutMs: TIMEOUT });
    const { r } = await timed(box, `${POLLUTE} const o = { a: 1 }; o`);
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual({ a: 1 });
  });

  it('an async run that resolves with an object never settles: TIMEOUT within the deadline + 1 s', async () => {
    await using box = await createSandbox({ timeoutMs: TIMEOUT });
    const { r, ms } = await timed(box, `${POLLUTE} const o = { a: 1 }; await 0; o`);
    expect(r.error?.type).toBe('TIMEOUT');
    expectWithinDeadline(ms, TIMEOUT);
    await expectHealthy(box);
  });

  it('a then that loops: TIMEOUT within the deadline + 1 s', async () => {
    await using box = await createSandbox({ timeoutMs: TIMEOUT });
    const { r, ms } = await timed(
      box,
      `${BYPASS} G.Object[${rt('prototype')}].then = function () { while (true) {} }; const o = { a: 1 }; await 0; o`,
    );
    expect(r.error?.type).toBe('TIMEOUT');
    expectWithinDeadline(ms, TIMEOUT);
  });

  it('the pollution stays in its session: another session and a later fresh run are clean', async () => {
    await using polluted = await createSandbox({ timeoutMs: TIMEOUT });
    await using other = await createSandbox({ timeoutMs: TIMEOUT });
    await polluted.run(POLLUTE);
    expect((await polluted.run('typeof ({}).then')).value).toBe('function');
    expect((await other.run('typeof ({}).then')).value).toBe('undefined');
    expect(typeof (Object.prototype as { then?: unknown }).then).toBe('undefined');
    await expectHealthy(other);
  });
});
