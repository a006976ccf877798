import type { Sandbox } from '../../sandbox/sandbox.js';
import type { Cell } from '../store/sharedStore.js';
import { cellDiff } from './cellOutcome.js';

/** Caps on rebuilding a session on a replica that does not hold it. */
export interface ReplayCaps {
  /** Most cells replayed. @default 500 */
  maxReplayCells: number;
  /** Most bytes of code replayed in total. @default 4 MiB */
  maxReplayBytes: number;
  /** Longest a rebuild may take, in ms. @default 60000 */
  maxReplayMs: number;
}

/** Outcome of a replay: every cell matched, or why the session must be reset. */
export type ReplayOutcome =
  { ok: true; cells: number; ms: number } | { ok: false; reason: string; cells: number; ms: number };

/**
 * Re-run `cells` in order in `box` with each cell's recorded `{ now, seed }`, comparing each result
 * with the recorded hashes. Stops at the first difference or cap: the caller then resets the
 * session instead of continuing on state that is not the one the caller built.
 * `position` is how many cells the box already holds (for messages and the caps).
 */
export async function replayCells(
  box: Sandbox,
  cells: Cell[],
  position: number,
  caps: ReplayCaps,
): Promise<ReplayOutcome> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const total = position + cells.length;
  if (total > caps.maxReplayCells) {
    return {
      ok: false,
      reason: `the session has ${total} cells, over the ${caps.maxReplayCells}-cell replay cap`,
      cells: 0,
      ms: 0,
    };
  }
  const bytes = cells.reduce((n, c) => n + Buffer.byteLength(c.code), 0);
  if (bytes > caps.maxReplayBytes) {
    return {
      ok: false,
      reason: `its cells hold ${bytes} bytes of code, over the ${caps.maxReplayBytes}-byte replay cap`,
      cells: 0,
      ms: 0,
    };
  }
  let done = 0;
  for (const cell of cells) {
    const result = await box.run(cell.code, { deterministic: cell.deterministic });
    const diff = cellDiff(cell, result);
    if (diff)
      return { ok: false, reason: `cell ${position + done + 1} diverged on replay (${diff})`, cells: done, ms: ms() };
    done++;
    if (ms() > caps.maxReplayMs) {
      return { ok: false, reason: `replaying took over the ${caps.maxReplayMs} ms replay cap`, cells: done, ms: ms() };
    }
  }
  return { ok: true, cells: done, ms: ms() };
}
