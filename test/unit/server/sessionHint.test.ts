import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../schema/result.js';
import { withSessionHint } from '../../../src/server/sessions/sessionHint.js';

const failed = (message: string, hint?: string, extra: Partial<RunResult> = {}) =>
  ({
    ok: false,
    value: undefined,
    stdout: '',
    stderr: '',
    error: { type: 'RUNTIME_ERROR', name: 'ReferenceError', message, ...(hint ? { hint } : {}) },
    ...extra,
  }) as unknown as RunResult;

describe('withSessionHint', () => {
  it('talks about the session, not a helper with a similar name', () => {
    const r = withSessionHint(
      failed('ReferenceError: myVar is not defined (line 1, col 1)', 'Did you mean `var`?'),
      's1',
    );
    expect(r.error!.hint).toMatch(/^`myVar` is not defined in session s1\./);
    expect(r.error!.hint).toMatch(/reset/);
    expect(r.error!.hint).toMatch(/never defined/);
    expect(r.error!.hint).not.toMatch(/Did you mean/);
  });

  it('says the session was reset when it was', () => {
    const r = withSessionHint(failed('ReferenceError: total is not defined', undefined, { sessionReset: true }), 's2');
    expect(r.error!.hint).toMatch(/was reset before this run/);
  });

  it('keeps hints about known names and other errors', () => {
    expect(
      withSessionHint(failed('ReferenceError: require is not defined', 'require/import are not available'), 's').error!
        .hint,
    ).toBe('require/import are not available');
    const type = {
      ...failed('TypeError: x is not a function', 'h'),
      error: { type: 'RUNTIME_ERROR', name: 'TypeError', message: 'TypeError: x', hint: 'h' },
    } as unknown as RunResult;
    expect(withSessionHint(type, 's').error!.hint).toBe('h');
  });
});
