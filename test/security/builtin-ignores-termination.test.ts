// Hazard: builtins that ignore V8's termination request (indexOf/includes over an array-like of
// length 2**40, join of 2**32 - 1 holes, huge BigInt powers, a default sort of millions). On raw
// isolated-vm the thread keeps spinning after "Script failed to terminate" and the process cannot
// exit. Layers: the run's deadline (isolatedVmSession.ts) answers TIMEOUT; the isolate's thread does
// not unwind, so the holder reports it stuck and exits (holderMain.ts), and the host replaces it;
// the host SIGKILLs a holder at deadline + 500 ms if even that fails (holderPool.ts).
import { describe, expect, it } from 'vitest';
import { BYPASS, expectHealthy, expectWithinDeadline, holderPid, timed, withPool } from './helpers.js';

const TIMEOUT = 1500;

const ATTACKS: Array<[string, string, { stuck: boolean }]> = [
  ['indexOf over an array-like of length 2**40', '[].indexOf.call({ length: 2 ** 40 }, 1)', { stuck: true }],
  ['includes over an array-like of length 2**40', '[].includes.call({ length: 2 ** 40 }, 1)', { stuck: true }],
  ['join of 2**32 - 1 holes', "[].join.call({ length: 2 ** 32 - 1 }, '')", { stuck: true }],
  ['a huge BigInt power', '(7n ** 100000000n) > 0n', { stuck: false }],
  [
    'a default sort of millions of numbers',
    'const a = []; for (let i = 0; i < 3e6; i++) a.push(i * 7919 % 3e6); a.sort(); a[0]',
    { stuck: false },
  ],
];

describe('a builtin that ignores termination', () => {
  for (const [name, code, { stuck }] of ATTACKS) {
    it(`${name}: TIMEOUT by the deadline + 1 s; the session is reset${stuck ? ' and the stuck holder replaced' : ''}`, async () => {
      await withPool(async (pool) => {
        await using box = await pool.createSandbox({ timeoutMs: TIMEOUT, memoryLimitMb: 512 });
        await box.run('const keep = 1');
        const before = holderPid(pool);
        const { r, ms } = await timed(box, code);
        expect(r.error?.type).toBe('TIMEOUT');
        expectWithinDeadline(ms, TIMEOUT);
        if (stuck) {
          // the holder ends itself once its reply is out; wait for the host to see the exit
          await expect.poll(() => pool.stats().pids.includes(before), { timeout: 4000 }).toBe(false);
        }
        const next = await box.run('typeof keep');
        expect(next.value).toBe('undefined');
        expect(next.sessionReset).toBe(true);
        if (stuck) expect(holderPid(pool)).not.toBe(before);
        await expectHealthy(box);
      });
    });
  }

  it('the same attacks reached through the Function constructor end the same way', async () => {
    await withPool(async (pool) => {
      await using box = await pool.createSandbox({ timeoutMs: TIMEOUT });
      const { r, ms } = await timed(box, `${BYPASS} F('return [].indexOf.call({ length: 2 ** 40 }, 1)')()`);
      expect(r.error?.type).toBe('TIMEOUT');
      expectWithinDeadline(ms, TIMEOUT);
      await expectHealthy(box);
    });
  });
});
