import type { Middleware, RequestContext } from '../context.js';
import { fail } from '../respond.js';
import { readBody } from '../../adapters/readBody.js';

/**
 * Read the body into `ctx.body`, refusing more than the route's limit with 413 (stops reading as
 * soon as it is over, and trusts no Content-Length: the count is of bytes received).
 */
export function bodyLimit(limitOf: number | ((ctx: RequestContext) => number)): Middleware {
  return async (ctx, next) => {
    const { request } = ctx;
    const maxBytes = typeof limitOf === 'number' ? limitOf : limitOf(ctx);
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'DELETE') return next();
    const tooLarge = () => fail(413, 'REQUEST_TOO_LARGE', `The request body is over ${maxBytes} bytes.`, { connection: 'close' }, 'Send shorter code: award_data is already loaded, so no data needs to be sent.');
    if (request.body) {
      const text = await readBody(request, maxBytes);
      if (text === undefined) return tooLarge();
      ctx.body = text;
    } else if (Number(request.headers.get('content-length') ?? 0) > maxBytes) return tooLarge();
    return next();
  };
}
