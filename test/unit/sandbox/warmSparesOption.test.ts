// createPool({ warmSpares }) reaches the pool's holder processes (as SBIRTOOLS_WARM_SPARES, which
// runtime/holder/sessionHost.ts reads; test/unit/runtime/warmSessions.test.ts covers what it turns
// off), and a value that is not a boolean is refused, naming it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createPool, SbirtoolsValidationError } from '../../../src/index.js';

/** The holder's environment as the kernel shows it. */
function holderEnv(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
}

describe('the `warmSpares` pool option', () => {
  it.skipIf(process.platform !== 'linux')('is passed to the holder processes, on and off', async () => {
    for (const warmSpares of [false, true]) {
      await using pool = createPool({ size: 1, warmSpares });
      await using box = await pool.createSandbox();
      expect((await box.run('6 * 7')).value).toBe(42);
      const [pid] = pool.stats().pids;
      expect(holderEnv(pid!)).toContain(`SBIRTOOLS_WARM_SPARES=${warmSpares ? 1 : 0}`);
    }
  });

  it('refuses a value that is not a boolean, naming it', () => {
    expect(() => createPool({ warmSpares: 'yes' as never })).toThrow(
      'Expected the `warmSpares` option to be true or false, got `yes`',
    );
    expect(() => createPool({ warmSpares: 1 as never })).toThrow(SbirtoolsValidationError);
  });
});
