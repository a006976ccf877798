import type { RunResult } from '../../../schema/result.js';
import { sha256, valueHash } from '../../capsule/hash.js';
import type { Cell, CellDeterminism } from '../store/sharedStore.js';

/** What a finished run means for its session's history. */
export type CellOutcome =
  /** It ran to the end (or to a guest error): it changed state, so it is kept and replayed. */
  | 'record'
  /** A limit or a cancel disposed the isolate: the state is gone, so the history restarts. */
  | 'reset'
  /** It never ran (syntax, policy, queue full): nothing changed. */
  | 'none';

// Error types whose run disposes the isolate (buildResult's hints say "the session state was reset").
const DISPOSING = new Set(['TIMEOUT', 'MEMORY_LIMIT', 'ABORTED', 'INTERNAL_ERROR']);
// Error types of runs that never started executing.
const NEVER_RAN = new Set(['SYNTAX_ERROR', 'POLICY_VIOLATION', 'VALIDATION_ERROR', 'QUEUE_FULL']);

/** Classify a run's result. */
export function cellOutcome(result: RunResult): CellOutcome {
  // a TIMEOUT while the code was checked or its columns decoded, a cancel before it started
  if (result.codeRan === false) return 'none';
  const type = result.error?.type;
  if (type && DISPOSING.has(type)) return 'reset';
  if (type && NEVER_RAN.has(type)) return 'none';
  return 'record';
}

/** True when the code started executing (a TIMEOUT ran and was stopped; QUEUE_FULL never started). */
export function codeRan(result: RunResult): boolean {
  if (result.codeRan === false) return false;
  return !(result.error && NEVER_RAN.has(result.error.type));
}

/** The stored form of a recorded run. */
export function toCell(id: string, code: string, deterministic: CellDeterminism, result: RunResult): Cell {
  return {
    id,
    code,
    deterministic,
    ok: result.ok,
    ...(result.error ? { errorType: result.error.type } : {}),
    valueHash: valueHash(result),
    stdoutHash: sha256(result.stdout),
  };
}

/** Where a replayed result differs from its recorded cell, or undefined when it is the same. */
export function cellDiff(cell: Cell, result: RunResult): string | undefined {
  if (result.ok !== cell.ok || (result.error?.type ?? undefined) !== cell.errorType) {
    return `it ended ${result.error?.type ?? 'ok'} on replay but ${cell.errorType ?? 'ok'} when first run`;
  }
  if (valueHash(result) !== cell.valueHash) return 'its value differs from the first run';
  if (sha256(result.stdout) !== cell.stdoutHash) return 'its printed output differs from the first run';
  return undefined;
}
