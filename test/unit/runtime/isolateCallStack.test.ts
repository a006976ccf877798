import { describe, expect, it } from 'vitest';
import { IsolatedVmSession } from '../../../src/runtime/engines/isolated-vm/isolatedVmSession.js';
import { loadEngine } from '../../../src/runtime/engines/isolated-vm/loadIsolatedVm.js';
import type { GuestRunRequest } from '../../../src/runtime/engines/engineSession.js';
import { PRESETS } from '../../../schema/limits.js';

/** JS frames on the stack of the caller of this function. */
function stackDepth(): number {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 200;
  try {
    return (new Error().stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at ')).length - 1;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

const RUN: GuestRunRequest = { code: '6 * 7', async: false, lineOffset: 0, resultName: false, timeoutMs: 5_000 };

describe("the isolate call's stack", () => {
  // isolated-vm records up to 10 frames of the caller's stack for every asynchronous call; the
  // holder reaches a run through ~10 frames of its IPC path, which the call must not carry along
  it('is shallow however deep the caller is, and the run answers as before', async () => {
    const { ivm } = loadEngine();
    const session = await IsolatedVmSession.open(ivm, { ...PRESETS.standard }, [], undefined);
    try {
      // the session's reference to the prelude's execute, behind a wrapper that notes the stack
      const inner = session as unknown as { execute: { apply(...args: unknown[]): unknown } };
      const execute = inner.execute;
      const depths: number[] = [];
      inner.execute = {
        apply: (...args: unknown[]) => {
          depths.push(stackDepth());
          return execute.apply(...args);
        },
      };
      const deep = (n: number): ReturnType<IsolatedVmSession['run']> => (n === 0 ? session.run(RUN) : deep(n - 1));
      expect(stackDepth()).toBeGreaterThan(0);
      const out = await deep(30);
      expect(out.status).toBe('ok');
      expect(JSON.parse(out.outcomeJson!)).toMatchObject({ ok: true });
      expect(out.outcomeJson).toContain('42');
      expect(depths).toHaveLength(1);
      // run and the microtask machinery that resumed it (a few frames); from the caller's stack it
      // would be 30+, of which isolated-vm would summarize 10
      expect(depths[0]).toBeLessThan(10);
    } finally {
      session.dispose('closed');
    }
  });
});
