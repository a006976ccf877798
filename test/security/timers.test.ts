// Hazard: timers let work outlive its run (a callback firing in a later run, or after the sandbox
// is "idle"), and string timers are eval. Layers: the policy (no-dynamic-code for string timers);
// the isolate has no setTimeout/setInterval/setImmediate/queueMicrotask; microtasks left behind
// are drained inside the run that made them, under its deadline.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { BYPASS, expectHealthy, expectPolicy, expectWithinDeadline, holderPid, timed, withPool } from './helpers.js';

/** CPU seconds a process has used (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const TIMEOUT = 1500;

describe('timers', () => {
  it('a timer with a string of code is blocked by the policy', async () => {
    expectPolicy(await run("setTimeout('1 + 1', 0)"), 'no-dynamic-code');
    expectPolicy(await run("setInterval('x++', 1)"), 'no-dynamic-code');
  });

  it('no timer function exists in the isolate', async () => {
    const r = await run(
      `${BYPASS} ['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'requestAnimationFrame', 'clearTimeout'].map((n) => typeof G[n])`,
    );
    expect(r.value).toEqual(Array(6).fill('undefined'));
    const call = await run('setTimeout(() => 1, 0)');
    expect(call.error?.type).toBe('RUNTIME_ERROR');
    expect(call.error?.name).toBe('ReferenceError');
  });

  it('work queued in one run never runs later: microtasks finish inside their run', async () => {
    await using box = await createSandbox({ timeoutMs: TIMEOUT });
    await box.run("var ticks = 0; Promise.resolve().then(() => ticks++).then(() => ticks++); 'queued'");
    expect((await box.run('ticks')).value).toBe(2);
    expect((await box.run('ticks')).value).toBe(2);
  });

  it('a microtask loop left running after the value: the run does not end until the deadline (TIMEOUT)', async () => {
    await using box = await createSandbox({ timeoutMs: TIMEOUT });
    const { r, ms } = await timed(box, 'let n = 0; (async () => { while (true) { await null; n++ } })(); 1');
    expect(r.error?.type).toBe('TIMEOUT');
    expectWithinDeadline(ms, TIMEOUT);
    await expectHealthy(box);
  });

  it('a looping FinalizationRegistry callback never runs between runs; inside a run it ends at the deadline', async () => {
    await withPool(async (pool) => {
      await using box = await pool.createSandbox({ timeoutMs: TIMEOUT });
      const registered = await box.run(
        "var fr = new FinalizationRegistry(() => { while (true) {} }); (() => { for (let i = 0; i < 100; i++) fr.register({ i }, i) })(); 'registered'",
      );
      expect(registered.value).toBe('registered');
      const pid = holderPid(pool);
      // the pool's spare isolate boots after the sandbox takes its own: let that settle, then a
      // looping callback would burn the whole second window while an idle holder spends ~0
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const idle0 = cpuSeconds(pid);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(cpuSeconds(pid) - idle0, 'the holder stays idle between runs').toBeLessThan(0.3);
      // a run that makes garbage triggers the GC, and the cleanup loops inside that run
      const { r, ms } = await timed(
        box,
        'for (let k = 0; k < 20; k++) { let g = []; for (let i = 0; i < 3e5; i++) g.push({ i }) } 1',
      );
      expect(r.error?.type).toBe('TIMEOUT');
      expectWithinDeadline(ms, TIMEOUT);
      const next = await box.run('1 + 1');
      expect(next.value).toBe(2);
      expect(next.sessionReset).toBe(true);
    });
  });
});
