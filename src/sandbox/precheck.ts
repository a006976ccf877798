import type { Limits } from '../../schema/limits.js';
import type { RunResult } from '../../schema/result.js';
import { SbirtoolsValidationError } from '../core/errors.js';

type Checked = { ok: true; code: string } | { ok: false; result: RunResult };

/**
 * What the host decides before a run leaves it: the code's type and size, both O(1)/O(n) with no
 * parse. The parse (policy check and notebook transform, checkAndPrepare.ts) happens where the
 * code runs, inside the run's deadline, so a large program never blocks the caller's event loop.
 * @throws {SbirtoolsValidationError} when `code` is not a string (the caller's bug, not the guest's).
 */
export function precheck(code: unknown, limits: Limits): Checked {
  if (typeof code !== 'string') {
    throw new SbirtoolsValidationError(
      `Expected \`code\` to be a string of JavaScript, got \`${code === null ? 'null' : typeof code}\``,
    );
  }
  // A leading BOM is an editor artefact, not code.
  const source = code.charCodeAt(0) === 0xfeff ? code.slice(1) : code;
  // UTF-8 bytes are at most 3 per UTF-16 unit: most code is decided without counting
  const bytes = source.length * 3 <= limits.maxCodeBytes ? 0 : new TextEncoder().encode(source).byteLength; // (no Buffer: also runs on the edge)
  if (bytes > limits.maxCodeBytes) {
    return {
      ok: false,
      result: emptyResult(limits, {
        type: 'POLICY_VIOLATION',
        message: `The code is ${bytes} bytes, over the ${limits.maxCodeBytes}-byte limit (maxCodeBytes).`,
        hint: 'Send shorter code: award_data is already loaded, so no data needs to be pasted into the code; split the work over several runs of a session.',
        violations: [
          {
            rule: 'max-code-bytes',
            message: `code is ${bytes} bytes`,
            line: 1,
            column: 1,
            snippet: '',
            hint: 'Send shorter code.',
          },
        ],
      }),
    };
  }
  return { ok: true, code: source };
}

/** A result for a run that never started (refused before it reached an isolate). */
export function emptyResult(limits: Limits, error: RunResult['error']): RunResult {
  return {
    ok: false,
    stdout: '',
    stderr: '',
    error,
    stats: { wallMs: 0, cpuMs: 0, heapUsedMb: 0 },
    truncated: { stdout: false, value: false },
    limits,
    codeRan: false,
  };
}
