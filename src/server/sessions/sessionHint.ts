import type { RunResult } from '../../../schema/result.js';

/**
 * In a session, a name that is not defined is most likely a variable of an earlier call: the hint
 * says so (the session may have been reset, or the name never defined) instead of pointing at a
 * helper with a similar spelling. Other errors keep their hint.
 * @example withSessionHint(result, 'a1b2') // error.hint: '`total` is not defined in session a1b2 ...'
 */
export function withSessionHint(result: RunResult, sessionId: string): RunResult {
  const error = result.error;
  if (!error || (error as { name?: string }).name !== 'ReferenceError') return result;
  const name = /ReferenceError: (\S+) is not defined/.exec(error.message)?.[1];
  // a hint that is not a spelling guess is about a known name (award_data, require...): keep it
  if (!name || (error.hint && !error.hint.startsWith('Did you mean'))) return result;
  const reset = result.sessionReset
    ? 'This session was reset before this run (see stderr), so variables from earlier calls are gone: define it again.'
    : 'If an earlier call defined it, the session has been reset since (a limit stopped a run, it expired, or it was closed): define it again in this call. Otherwise the name was never defined in this session: define it first, or check its spelling.';
  error.hint = `\`${name}\` is not defined in session ${sessionId}. ${reset}`;
  return result;
}
