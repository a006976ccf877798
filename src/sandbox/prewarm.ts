import { prewarmDefaultHolder } from '../runtime/holder/defaultHolder.js';

/**
 * Start the shared holder process now, so its start-up (Node, isolated-vm, the holder bundle)
 * overlaps the caller's own imports. A function bundle's entry (src/bundle/targets.ts) calls it
 * first thing, before it loads the handler; cheap to import (no zod, no data layer).
 * @example prewarmSandbox(); const { lambdaHandler } = await import('sbirtools/...');
 */
export function prewarmSandbox(): void {
  prewarmDefaultHolder();
}
