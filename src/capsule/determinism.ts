import { randomInt } from 'node:crypto';
import type { Determinism } from './capsuleRecord.js';

/**
 * Fresh `{ now, seed }` for one deterministic run: the current time and a random 32-bit seed.
 * Recorded in the capsule, so a replay gets the same clock and the same Math.random sequence.
 * @example await box.run(code, { deterministic: freshDeterminism() })
 */
export function freshDeterminism(): Determinism {
  return { now: Date.now(), seed: randomInt(0, 2 ** 32) };
}
