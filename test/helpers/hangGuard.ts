import { expect } from 'vitest';

/** How much slower than expected something may be before a test calls it a hang. */
export const HANG_FACTOR = 10;

/**
 * A hang guard, not a timing: fails only when `ms` passes 10x what the step should take, so a
 * loaded machine never fails it and a real hang (an attack that escaped its deadline) still does.
 * Timings live in bench/.
 * @example expectNoHang(performance.now() - t0, TIMEOUT, 'the TIMEOUT answer');
 */
export function expectNoHang(ms: number, expectedMs: number, what = 'it'): void {
  expect(
    ms,
    `${what} took ${Math.round(ms)} ms, over ${HANG_FACTOR}x the expected ${expectedMs} ms: it hung`,
  ).toBeLessThan(HANG_FACTOR * expectedMs);
}
