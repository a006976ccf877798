import { HandlerRequestSchema } from '../../schema/tool.js';
import { parseRunBody } from './parseRunBody.js';
import { createSessionStore, type SessionStoreOptions } from './sessionStore.js';
import { readBody } from './readBody.js';
import { runResultResponse } from '../sandbox/http.js';

/** Options of createHandler(). Sessions are not kept: every request is a one-shot run. */
export interface HandlerOptions extends Pick<
  SessionStoreOptions,
  'sandbox' | 'pool' | 'capsuleLog' | 'capsuleOutputs' | 'deterministic'
> {
  /** Largest accepted request body, in bytes. @default 2 * maxCodeBytes + 4096 (room for JSON escapes) */
  maxBodyBytes?: number;
  /** Called with host failures (500s), e.g. to log them; the client never sees them. @default console.error */
  onError?: (err: unknown) => void;
}

/** The JSON body of every non-200 answer that is not a RunResult. */
export interface HandlerErrorBody {
  error: { type: string; message: string };
}

/**
 * A Fetch API handler: `POST {"code": "..."}` -> the RunResult as JSON (200; 503 with Retry-After
 * for QUEUE_FULL). 405 for other methods, 413 for a body over `maxBodyBytes`, 400 for bad JSON or a
 * missing `code`, 500 for host failures; those answer `{ error: { type, message } }`, never a stack.
 * Runs on Node runtimes only (isolated-vm is a Node addon).
 * @throws {SbirtoolsValidationError} for bad limits or a bad preset, at creation.
 * @example
 * export default { fetch: createHandler({ sandbox: { preset: 'strict' } }) };
 */
export function createHandler(options: HandlerOptions = {}): (request: Request) => Promise<Response> {
  const store = createSessionStore({ ...options, maxSessions: 1 });
  const maxBody = options.maxBodyBytes ?? 2 * store.limits.maxCodeBytes + 4096;
  const onError = options.onError ?? ((err: unknown) => console.error('sbirtools handler:', err));
  return async (request) => {
    try {
      if (request.method !== 'POST') {
        return fail(
          405,
          'METHOD_NOT_ALLOWED',
          `Use POST with a JSON body {"code": "<JavaScript>"}; got ${request.method}.`,
          { allow: 'POST' },
        );
      }
      const body = await readBody(request, maxBody);
      if (body === undefined)
        return fail(
          413,
          'REQUEST_TOO_LARGE',
          `The request body is over ${maxBody} bytes. Send shorter code: award_data is already loaded.`,
        );
      const parsed = parseRunBody(body, HandlerRequestSchema);
      if (!parsed.ok) return fail(400, 'VALIDATION_ERROR', parsed.message);
      const result = await store.run(parsed.data.code, { signal: request.signal });
      return runResultResponse(result);
    } catch (err) {
      onError(err);
      return fail(
        500,
        'INTERNAL_ERROR',
        'The server failed to run the code. Retry; if it keeps failing, the operator should check the server logs.',
      );
    }
  };
}

function fail(status: number, type: string, message: string, headers: Record<string, string> = {}): Response {
  const body: HandlerErrorBody = { error: { type, message } };
  return Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } });
}
