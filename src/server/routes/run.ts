import { RunAnalysisInputSchema } from '../../../schema/tool.js';
import { parseRunBody } from '../../adapters/parseRunBody.js';
import { idempotent } from '../idempotency.js';
import { fail } from '../respond.js';
import { LeaseTimeoutError } from '../sessions/withLease.js';
import type { Route } from './route.js';
import { runResultResponse } from '../../sandbox/http.js';
import { runStream } from './runStream.js';

/**
 * `POST /v1/run` `{ code, session_id? }` -> 200 with the RunResult (a guest error is a result);
 * 404 for a session_id the key does not have; 503 when the session stayed busy (the code never
 * started). Every answer says in `sbirtools-code-ran` whether the code started. Honors `Idempotency-Key`.
 * With `Accept: text/event-stream` the run streams as Server-Sent Events instead (runStream).
 */
export const runRoute: Route = {
  method: 'POST',
  path: '/v1/run',
  auth: true,
  isRun: () => true,
  chargedByHead: true,
  handle: async (ctx, app) => {
    const parsed = parseRunBody(ctx.body, RunAnalysisInputSchema);
    if (!parsed.ok) return fail(400, 'VALIDATION_ERROR', parsed.message);
    const { code, session_id } = parsed.data;
    if (session_id) ctx.log.sessionId = session_id;
    if (/text\/event-stream/.test(ctx.request.headers.get('accept') ?? ''))
      return runStream(ctx, app, { code, ...(session_id ? { session_id } : {}) });
    const waitMs = app.lockWaitMs;
    try {
      return await idempotent(
        app.store,
        ctx.keyId,
        ctx.request.headers.get('idempotency-key'),
        ctx.body,
        waitMs,
        async (answer) => {
          // With an Idempotency-Key a dropped connection does not cancel the run: it finishes and its
          // answer waits for the retry. Without one, a client that hangs up cancels its run.
          const signal = answer ? {} : { signal: ctx.request.signal };
          const done = await app.sessions.run(ctx.keyId, code, {
            ...(session_id ? { sessionId: session_id } : {}),
            ...signal,
            ...(answer ? { answer } : {}),
            ...(ctx.priority ? { priority: ctx.priority } : {}),
          });
          if (!done) {
            return fail(
              404,
              'SESSION_NOT_FOUND',
              `This API key has no session "${session_id}" (closed, expired, or never created); the code never started.`,
              { 'sbirtools-code-ran': 'false' },
              'Create a session with POST /v1/sessions and pass its session_id, or omit session_id for a one-off run.',
            );
          }
          const { result } = done;
          ctx.cpuMs = (ctx.cpuMs ?? 0) + result.stats.cpuMs;
          if (result.error) ctx.log.errorType = result.error.type;
          if (done.replayedCells) ctx.log.replayedCells = done.replayedCells;
          return runResultResponse(result, { 'sbirtools-code-ran': String(done.ran) });
        },
      );
    } catch (err) {
      if (!(err instanceof LeaseTimeoutError)) throw err;
      return fail(
        503,
        'SESSION_BUSY',
        `Another request of this session (or with this Idempotency-Key) is still running after ${waitMs} ms; this code never started.`,
        { 'retry-after': '1', 'sbirtools-code-ran': 'false' },
        'Retry with the same Idempotency-Key: you get the first answer once it is ready.',
      );
    }
  },
};
