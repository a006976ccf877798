import type { RunResult } from '../../schema/result.js';

/** Exit codes of the `sbirtools` CLI; one row each in docs/cli.md. */
export const EXIT = {
  /** The run succeeded (replay: stdout and value match). */
  OK: 0,
  /** The guest code failed: SYNTAX_ERROR, POLICY_VIOLATION, RUNTIME_ERROR (replay: a mismatch). */
  GUEST_ERROR: 1,
  /** Bad usage: unknown flag, missing code, bad value; nothing ran. */
  USAGE: 2,
  /** A limit was hit: TIMEOUT, MEMORY_LIMIT, OUTPUT_LIMIT, QUEUE_FULL. */
  LIMIT: 3,
  /** award_data could not be loaded (missing, unreadable or bad CSV, cache or download failure). */
  DATA: 4,
  /**
   * A part this command needs is not available here: the engine asked for (`--engine isolated-vm`:
   * ENGINE_UNAVAILABLE) or an optional package (OPTIONAL_DEPENDENCY_MISSING, e.g. redis for
   * `serve --redis`). sysexits' EX_UNAVAILABLE.
   */
  UNAVAILABLE: 69,
  /** A bug or a broken installation (INTERNAL_ERROR, unexpected exception). */
  INTERNAL: 70,
  /** Interrupted by Ctrl-C (ABORTED). */
  INTERRUPTED: 130,
} as const;

/** The exit code for a run's result. */
export function exitCodeFor(result: RunResult): number {
  if (result.ok) return EXIT.OK;
  switch (result.error?.type) {
    case 'TIMEOUT':
    case 'MEMORY_LIMIT':
    case 'OUTPUT_LIMIT':
    case 'QUEUE_FULL':
      return EXIT.LIMIT;
    case 'ABORTED':
      return EXIT.INTERRUPTED;
    case 'VALIDATION_ERROR':
      return EXIT.USAGE;
    case 'INTERNAL_ERROR':
    case undefined:
      return EXIT.INTERNAL;
    default:
      return EXIT.GUEST_ERROR;
  }
}

/** The exit code for an exception thrown by the library (not a guest failure). */
export function exitCodeForError(err: unknown): number {
  const code = String((err as { code?: unknown })?.code ?? '');
  if (code === 'VALIDATION_ERROR' || code.startsWith('OUTPUT_')) return EXIT.USAGE;
  if (code === 'ENGINE_UNAVAILABLE' || code === 'OPTIONAL_DEPENDENCY_MISSING') return EXIT.UNAVAILABLE;
  if (/^(DATA_|DOWNLOAD_|CACHE_|DISK_FULL)/.test(code)) return EXIT.DATA;
  return EXIT.INTERNAL;
}
