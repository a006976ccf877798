import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeFor, exitCodeForError } from '../../../src/cli/exitCodes.js';
import { PRESETS, type ErrorType, type RunResult } from '../../../src/index.js';

const result = (type?: ErrorType): RunResult => ({
  ok: type === undefined,
  stdout: '',
  stderr: '',
  ...(type ? { error: { type, message: 'x' } } : {}),
  stats: { wallMs: 0, cpuMs: 0, heapUsedMb: 0 },
  truncated: { stdout: false, value: false },
  limits: { ...PRESETS.standard },
});

describe('exit codes', () => {
  it('maps each error type to its documented code', () => {
    expect(exitCodeFor(result())).toBe(EXIT.OK);
    for (const t of ['SYNTAX_ERROR', 'POLICY_VIOLATION', 'RUNTIME_ERROR'] as const)
      expect(exitCodeFor(result(t))).toBe(1);
    for (const t of ['TIMEOUT', 'MEMORY_LIMIT', 'OUTPUT_LIMIT', 'QUEUE_FULL'] as const)
      expect(exitCodeFor(result(t))).toBe(3);
    expect(exitCodeFor(result('INTERNAL_ERROR'))).toBe(70);
    expect(exitCodeFor(result('ABORTED'))).toBe(130);
  });

  it('maps thrown errors by their code', () => {
    expect(exitCodeForError(Object.assign(new Error('bad'), { code: 'VALIDATION_ERROR' }))).toBe(2);
    expect(exitCodeForError(Object.assign(new Error('gone'), { code: 'DATA_NOT_FOUND' }))).toBe(4);
    expect(exitCodeForError(new Error('bug'))).toBe(70);
  });
});
