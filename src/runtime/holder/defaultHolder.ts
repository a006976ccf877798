import { HolderPool } from './holderPool.js';

let pool: HolderPool | undefined;

/** The shared default holder process pool (size 1), created on first use. */
export function defaultHolderPool(): HolderPool {
  return (pool ??= new HolderPool(1));
}

/** The default pool if it was created, without creating it. */
export function existingDefaultHolderPool(): HolderPool | undefined {
  return pool;
}

/** Forget the default pool (after shutting it down). */
export function resetDefaultHolderPool(): void {
  pool = undefined;
}

/**
 * Start the default holder process now, so its start-up (Node, isolated-vm, the data layer)
 * overlaps the caller's own imports. Used by the CLI before it loads anything else; cheap to
 * import (no zod, no data layer in this process).
 */
export function prewarmDefaultHolder(): void {
  defaultHolderPool().prewarm();
}
