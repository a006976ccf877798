import type { RunResult } from '../../src/index.js';

/**
 * What a differential test compares of two runs: the answer, the output, and the error as the
 * model sees it (type, name, message, line, column, snippet); timings and ids left out.
 */
export function runOutcome(r: RunResult) {
  return {
    ok: r.ok,
    value: r.value,
    stdout: r.stdout,
    error: r.error && {
      type: r.error.type,
      name: r.error.name,
      message: r.error.message,
      line: r.error.line,
      column: r.error.column,
      snippet: r.error.snippet,
    },
  };
}
