// Hazard: V8 calls Error.prepareStackTrace whenever an error's stack is formatted, including by the
// code that copies errors out: a looping hook hung the host. Layers: the policy
// (no-stack-trace-hooks) for the literal name; inside the isolate the hook only ever runs under the
// run's deadline, the prelude formats errors there, and only a JSON string reaches the host.
import { describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { BYPASS, expectHealthy, expectPolicy, expectWithinDeadline, rt, timed } from './helpers.js';

const TIMEOUT = 1500;
const HOOK = rt('prepareStackTrace');

describe('a looping Error.prepareStackTrace', () => {
  it('is blocked by the policy when named', async () => {
    expectPolicy(await run('Error.prepareStackTrace = () => { while (true) {} }; null.x'), 'no-stack-trace-hooks');
    expectPolicy(
      await run('Object.assign(Error, { prepareStackTrace() { while (true) {} } })'),
      'no-stack-trace-hooks',
    );
  });

  for (const [name, trigger] of [
    ['a TypeError from the guest', 'null.x'],
    ['a thrown Error', "throw new Error('x')"],
    ['reading .stack', "new Error('x').stack"],
    ['an error inside an Arquero verb', 'award_data.derive({ y: d => d.nope.x }).numRows()'],
  ] as const) {
    it(`set through a runtime key, then ${name}: TIMEOUT within the deadline + 1 s`, async () => {
      await using box = await createSandbox({ timeoutMs: TIMEOUT });
      const { r, ms } = await timed(box, `${BYPASS} G.Error[${HOOK}] = () => { while (true) {} }; ${trigger}`);
      expect(r.error?.type).toBe('TIMEOUT');
      expectWithinDeadline(ms, TIMEOUT);
      await expectHealthy(box);
    });
  }

  it('a hook whose result loops when turned into a string: TIMEOUT within the deadline + 1 s', async () => {
    await using box = await createSandbox({ timeoutMs: TIMEOUT });
    const { r, ms } = await timed(
      box,
      `${BYPASS} G.Error[${HOOK}] = () => ({ toString() { while (true) {} } }); null.x`,
    );
    expect(r.error?.type).toBe('TIMEOUT');
    expectWithinDeadline(ms, TIMEOUT);
    await expectHealthy(box);
  });

  it('a hook that throws or returns a non-string still gives a RUNTIME_ERROR with a string stack', async () => {
    await using box = await createSandbox({ timeoutMs: TIMEOUT });
    for (const hook of ["() => { throw new Error('hook') }", '() => 42', '() => ({ not: "a string" })']) {
      const r = await box.run(`${BYPASS} G.Error[${HOOK}] = ${hook}; null.x`);
      expect(r.error?.type, hook).toBe('RUNTIME_ERROR');
      expect(typeof (r.error?.stack ?? ''), hook).toBe('string');
      await box.run(`G.Error[${HOOK}] = undefined`);
    }
    await expectHealthy(box);
  });
});
