// isolated-vm calls the prelude's executeFlat (a run's options as numbers: schema/executeFlags.ts),
// QuickJS its execute (the options as an object). Each option must arrive the same either way: the
// same programs through both engines give the same results, and each result is the one the option
// asks for (so a flag read as another one, or a lineOffset or seed lost, fails here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown, type RunResult, type Sandbox } from '../../../src/index.js';

const NOW = Date.UTC(2026, 0, 1);

const PROGRAMS: Record<string, { code: string; check: (r: RunResult) => void; errorOnly?: boolean }> = {
  // EXECUTE_ASYNC: top-level await
  async: { code: 'await Promise.resolve(6 * 7)', check: (r) => expect(r.value).toBe(42) },
  // ... and its declarations stay the session's for the next run (asyncKept below reads them)
  asyncDeclares: {
    code: 'var kept = await Promise.resolve(3);\nconst also = 4;\nkept',
    check: (r) => expect(r.value).toBe(3),
  },
  asyncKept: { code: 'kept + also', check: (r) => expect(r.value).toBe(7) },
  // EXECUTE_RESULT_NAME: the value is the binding `result`, not the last expression
  resultName: { code: 'result = 40 + 2;\n"not this"', check: (r) => expect(r.value).toBe(42) },
  // EXECUTE_DETERMINISTIC: time frozen at the sandbox's `now`, randomness seeded
  deterministic: {
    code: '[Date.now(), Math.random()]',
    check: (r) => {
      const [now, draw] = r.value as [number, number];
      expect(now).toBe(NOW);
      expect(draw).toBeGreaterThanOrEqual(0);
      expect(draw).toBeLessThan(1);
    },
  },
  // the lines the runtime adds before the user's code (lineOffset) are taken off the error's line
  asyncErrorLine: {
    code: 'await 1;\nconst a = null;\na.b',
    check: (r) => expect(r.error).toMatchObject({ type: 'RUNTIME_ERROR', line: 3 }),
    // the engines word the TypeError and place its column differently: the line is what is compared
    errorOnly: true,
  },
  plain: { code: '1', check: (r) => expect(r.value).toBe(1) },
};

let ivm: Sandbox;
let quickjs: Sandbox;
beforeAll(async () => {
  const options = { awardData: false, deterministic: true, isolation: 'inline' } as const;
  ivm = await createSandbox({ ...options, engine: 'isolated-vm' });
  quickjs = await createSandbox({ ...options, engine: 'quickjs' });
}, 60_000);
afterAll(async () => {
  await ivm.close();
  await quickjs.close();
  await shutdown();
});

/** A result without what differs between engines and runs (timings, heap, the engine's name). */
function comparable(r: RunResult): unknown {
  const { stats: _stats, engine: _engine, ...rest } = r;
  return rest;
}

describe("a run's options reach the prelude the same on both engines", () => {
  it.each(Object.entries(PROGRAMS))('%s', async (_id, { code, check, errorOnly }) => {
    const [a, b] = [await ivm.run(code), await quickjs.run(code)];
    expect(a.engine?.name).toBe('isolated-vm');
    expect(b.engine?.name).toBe('quickjs');
    check(a);
    check(b);
    if (errorOnly) expect(a.error?.line).toBe(b.error?.line);
    else expect(comparable(a)).toEqual(comparable(b));
  });
});
