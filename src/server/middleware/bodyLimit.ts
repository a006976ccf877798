import type { Middleware, RequestContext } from '../context.js';
import { fail } from '../respond.js';
import { BodyIdleError, readBody } from '../../adapters/readBody.js';

/**
 * Read the body into `ctx.body`, refusing more than the route's limit with 413 (stops reading as
 * soon as it is over, and trusts no Content-Length: the count is of bytes received), and a body
 * that stalls `idleMs` with 408. The rest of a refused body is drained (or the connection closed)
 * by the listener only after the answer is flushed, so every client reads the answer.
 */
export function bodyLimit(limitOf: number | ((ctx: RequestContext) => number), idleMs?: number): Middleware {
  return async (ctx, next) => {
    const { request } = ctx;
    const maxBytes = typeof limitOf === 'number' ? limitOf : limitOf(ctx);
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'DELETE') return next();
    const tooLarge = () =>
      fail(
        413,
        'REQUEST_TOO_LARGE',
        `The request body is over ${maxBytes} bytes.`,
        {},
        'Send shorter code: award_data is already loaded, so no data needs to be sent.',
      );
    if (request.body) {
      let text: string | undefined;
      try {
        text = await readBody(request, maxBytes, idleMs);
      } catch (err) {
        if (!(err instanceof BodyIdleError)) throw err;
        return fail(
          408,
          'REQUEST_TIMEOUT',
          `${err.message} The request was dropped; nothing ran.`,
          { connection: 'close', 'sbirtools-code-ran': 'false' },
          'Send the whole body at once; a body that stalls is closed.',
        );
      }
      if (text === undefined) return tooLarge();
      ctx.body = text;
    } else if (Number(request.headers.get('content-length') ?? 0) > maxBytes) return tooLarge();
    return next();
  };
}
