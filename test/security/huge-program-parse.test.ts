// Attack: a program of the largest allowed size whose parse is slow (a million one-token
// statements), sent to stall the host. The policy check and the notebook transform share one
// parse, done where the session lives (the holder process; a worker thread for large programs)
// and inside the run's deadline: the caller's event loop keeps turning, the run ends within its
// deadline + 1 s as a TIMEOUT that did not touch the session, and the session keeps its state.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { checkAndPrepare } from '../../src/runtime/prepare/checkAndPrepare.js';
import { expectWithinDeadline } from './helpers.js';
import { expectNoHang } from '../helpers/hangGuard.js';

const MB = 1024 * 1024;
const HUGE = '1;\n'.repeat(Math.floor((4 * MB) / 3) - 10);

/** Longest gap between ticks of a 10 ms interval on this thread while `work` runs. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 10);
  try {
    const value = await work();
    stallMs = Math.max(stallMs, performance.now() - last);
    return { value, stallMs };
  } finally {
    clearInterval(tick);
  }
}

describe.each(['process', 'inline'] as const)('a huge slow-to-parse program (isolation %s)', (isolation) => {
  it('does not block the caller, ends as a TIMEOUT within deadline + 1 s, and keeps the session', async () => {
    await using box = await createSandbox({ isolation, maxCodeBytes: 4 * MB, timeoutMs: 1500 });
    await box.run('var kept = 41');
    const t0 = performance.now();
    const { value: r, stallMs } = await longestStall(() => box.run(HUGE));
    expectWithinDeadline(performance.now() - t0, 1500);
    // the host only measures and sends the string; a parse on this thread took seconds (~5 s
    // for this program); the bound leaves room for a loaded machine descheduling this process
    expectNoHang(stallMs, 100, "the host's longest event-loop stall");
    expect(r.ok).toBe(false);
    expect(r.error?.type).toBe('TIMEOUT');
    expect(r.error?.message).toMatch(/could not be checked \(parsed\) within the 1500 ms time limit/);
    expect(r.sessionReset).toBeUndefined();
    expect(r.codeRan).toBe(false);
    expect((await box.run('kept + 1')).value).toBe(42);
  });

  it('a large program that parses in time runs, with its last value', async () => {
    await using box = await createSandbox({ isolation, maxCodeBytes: 4 * MB, timeoutMs: 20_000 });
    const code = 'let s = 0;\n' + 's += 1;\n'.repeat(40_000) + 's';
    const r = await box.run(code);
    expect(r.value).toBe(40_000);
    // top-level let became var (notebook semantics): the binding persists
    expect((await box.run('s * 2')).value).toBe(80_000);
  });

  it('errors deep in a large program keep their exact line and column', async () => {
    await using box = await createSandbox({ isolation, maxCodeBytes: 4 * MB, timeoutMs: 20_000 });
    const filler = '1;\n'.repeat(30_000);
    const syntax = await box.run(filler + 'let x = ;');
    expect(syntax.error).toMatchObject({ type: 'SYNTAX_ERROR', line: 30_001, column: 9 });
    const policy = await box.run(filler + 'x = 1; require("fs")');
    expect(policy.error).toMatchObject({ type: 'POLICY_VIOLATION', line: 30_001, column: 8 });
    expect(policy.error?.violations?.[0]?.rule).toBe('no-module-globals');
    // Python sent by mistake, large enough for the worker: the same answer as the in-place check
    const py =
      'import pandas as pd\ndf = pd.read_csv("award_data.csv")\n' +
      'df = df[df["Award Amount"] > 1000]\n'.repeat(1_000) +
      'print(df.groupby("Agency").size())\n';
    const python = await box.run(py);
    const direct = checkAndPrepare(py, 'standard');
    expect(direct.ok).toBe(false);
    expect(python.error).toEqual(direct.ok ? undefined : direct.error);
    expect(python.error?.message).toMatch(/Python/);
  });

  it('an AbortSignal cancels a parse in progress, and the session keeps its state', async () => {
    await using box = await createSandbox({ isolation, maxCodeBytes: 4 * MB, timeoutMs: 30_000 });
    await box.run('var kept = 1');
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const t0 = performance.now();
    const r = await box.run(HUGE, { signal: ac.signal });
    expectNoHang(performance.now() - t0, 300, 'the abort of a parse in progress');
    expect(r.error?.type).toBe('ABORTED');
    expect((await box.run('kept')).value).toBe(1);
  });
});
