import { expect } from 'vitest';
import type { Sandbox } from '../../src/index.js';

/**
 * Runs each program as `__both(program)` in `box` (the test's own setup defines `__both`: the
 * program on award_data, the typed paths, and on a plain-array copy, and where their dumps first
 * differ) and expects the two dumps to be the same, with no error on the typed side.
 */
export async function expectBothAgree(box: Sandbox, programs: readonly string[]): Promise<void> {
  for (const program of programs) {
    const r = await box.run(`__both(${program})`);
    expect(r.ok, program).toBe(true);
    const [head, fast, plain, sameLength] = r.value as [string, string, string, boolean];
    expect(head, program).not.toBe('ERR ');
    expect(fast, program).toEqual(plain);
    expect(sameLength, program).toBe(true);
  }
}
