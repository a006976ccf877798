// Hazard: a program the session already compiled to a function (prelude/runtime/keptRuns.ts) run
// again with a global that makes it loop forever or grow without bound. The kept function runs inside
// the same execute() call as an eval would: isolated-vm's timeout and heap limit (QuickJS's interrupt
// and memory limit) stop it, the session resets, and the next run compiles the text anew.
import { describe, expect, it } from 'vitest';
import { expectHealthy, expectWithinDeadline, timed, withPool } from './helpers.js';

const LOOP = 'let n = 0;\nfor (let i = 0; i < lim; i++) n++;\nn';
const GROW = 'const a = [];\nfor (let i = 0; i < reps; i++) a.push(new Array(1e5).fill(1.5));\na.length';

describe('kept-function-limits', () => {
  it('a kept loop re-run with no end: TIMEOUT by the deadline + 1 s, session reset, then compiled anew', async () => {
    const { createSandbox } = await import('../../src/index.js');
    const timeoutMs = 1500;
    await using box = await createSandbox({ timeoutMs });
    await box.run('var lim = 1000');
    for (let i = 0; i < 3; i++) expect((await box.run(LOOP)).value).toBe(1000);
    await box.run('lim = Infinity');
    const { r, ms } = await timed(box, LOOP);
    expect(r.error?.type, JSON.stringify(r.error)).toBe('TIMEOUT');
    expectWithinDeadline(ms, timeoutMs);
    const next = await box.run('typeof lim');
    expect(next.sessionReset).toBe(true);
    expect(next.value).toBe('undefined');
    await box.run('var lim = 7');
    expect((await box.run(LOOP)).value).toBe(7);
    await expectHealthy(box);
  });

  it('a kept loop re-run that grows without bound: MEMORY_LIMIT, session reset', async () => {
    await withPool(async (pool) => {
      const timeoutMs = 15_000;
      await using box = await pool.createSandbox({ memoryLimitMb: 64, timeoutMs });
      await box.run('var reps = 2');
      for (let i = 0; i < 3; i++) expect((await box.run(GROW)).value).toBe(2);
      await box.run('reps = Infinity');
      const { r, ms } = await timed(box, GROW);
      expect(r.error?.type, JSON.stringify(r.error)).toBe('MEMORY_LIMIT');
      expectWithinDeadline(ms, timeoutMs);
      const next = await box.run('typeof reps');
      expect(next.sessionReset).toBe(true);
      await expectHealthy(box);
    });
  });
});
