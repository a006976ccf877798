import { randomUUID } from 'node:crypto';
import type { RunResult } from '../../../schema/result.js';
import type { Cell, CellDeterminism, SharedStore, StoredAnswer } from '../store/sharedStore.js';
import { cellOutcome, toCell } from './cellOutcome.js';

/**
 * Write what a session run means into the shared store, with the idempotent answer in the same
 * atomic step as its cell. Returns the ids of the history the local isolate now reflects, or
 * undefined when the isolate must be dropped (a limit disposed it).
 * - a run that changed state: its cell is appended;
 * - a run on a reset state (`sessionReset`): the history restarts as [reset marker, this cell];
 * - a run that hit a limit: the history restarts as [reset marker], so the next run (any replica) says `sessionReset`;
 * - a run that never started: nothing but the answer.
 */
export async function recordRun(
  store: SharedStore,
  owner: string,
  id: string,
  run: { code: string; deterministic: CellDeterminism; result: RunResult; applied: string[]; tables?: string },
  answer?: { key: string; value: StoredAnswer; ttlMs: number },
): Promise<string[] | undefined> {
  const { code, deterministic, result } = run;
  const outcome = cellOutcome(result);
  if (outcome === 'none') {
    // QUEUE_FULL is not an answer to keep: the retry must get a chance to run
    if (answer && answer.value.status === 200) await store.putAnswer(answer.key, answer.value, answer.ttlMs);
    return run.applied;
  }
  if (outcome === 'record' && !result.sessionReset) {
    const cell = withTables(toCell(randomUUID(), code, deterministic, result), run.tables);
    await store.appendCell(owner, id, cell, answer);
    return [...run.applied, cell.id];
  }
  await store.clearCells(owner, id);
  const marker: Cell = {
    id: randomUUID(),
    code: '',
    deterministic,
    ok: false,
    valueHash: '',
    stdoutHash: '',
    reset: true,
  };
  await store.appendCell(owner, id, marker);
  if (outcome === 'reset') {
    if (answer) await store.putAnswer(answer.key, answer.value, answer.ttlMs);
    return undefined;
  }
  const first = withTables(toCell(randomUUID(), code, deterministic, result), run.tables);
  await store.appendCell(owner, id, first, answer);
  return [marker.id, first.id];
}

/** The cell with the version of the owner's added tables it ran with (none: the field stays out). */
function withTables(cell: Cell, tables: string | undefined): Cell {
  return tables ? { ...cell, tables } : cell;
}
