// What a finished run means for a server session's history (cellOutcome.ts) and for the
// `sbirtools-code-ran` header (codeRan): a TIMEOUT or ABORTED whose code never started (the parse
// or the decode-ahead took the time limit, a cancel before it started) keeps the history and says
// the code did not run; one that stopped running code resets it.
import { describe, expect, it } from 'vitest';
import { cellOutcome, codeRan } from '../../../src/server/sessions/cellOutcome.js';
import { PRESETS } from '../../../schema/limits.js';
import type { RunResult } from '../../../schema/result.js';
import type { ErrorType } from '../../../schema/errors.js';

function result(type: ErrorType | undefined, extra: Partial<RunResult> = {}): RunResult {
  return {
    ok: type === undefined,
    stdout: '',
    stderr: '',
    ...(type ? { error: { type, message: type } } : { value: 1 }),
    stats: { wallMs: 1, cpuMs: 1, heapUsedMb: 1 },
    truncated: { stdout: false, value: false },
    limits: PRESETS.standard,
    ...extra,
  };
}

describe('cellOutcome and codeRan', () => {
  it('a TIMEOUT or ABORTED that stopped running code resets the history, and the code ran', () => {
    for (const type of ['TIMEOUT', 'ABORTED', 'MEMORY_LIMIT', 'INTERNAL_ERROR'] as const) {
      expect(cellOutcome(result(type)), type).toBe('reset');
      expect(codeRan(result(type)), type).toBe(true);
    }
  });

  it('a TIMEOUT or ABORTED whose code never started (codeRan: false) keeps the history', () => {
    for (const type of ['TIMEOUT', 'ABORTED'] as const) {
      expect(cellOutcome(result(type, { codeRan: false })), type).toBe('none');
      expect(codeRan(result(type, { codeRan: false })), type).toBe(false);
    }
  });

  it('checks that refuse the code never ran it; a guest error and a value are recorded', () => {
    for (const type of ['SYNTAX_ERROR', 'POLICY_VIOLATION', 'QUEUE_FULL'] as const) {
      expect(cellOutcome(result(type)), type).toBe('none');
      expect(codeRan(result(type)), type).toBe(false);
    }
    expect(cellOutcome(result('RUNTIME_ERROR'))).toBe('record');
    expect(cellOutcome(result(undefined))).toBe('record');
    expect(codeRan(result(undefined))).toBe(true);
  });
});
