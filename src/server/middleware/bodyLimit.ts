import type { Middleware } from '../context.js';
import { fail } from '../respond.js';

/**
 * Read the body into `ctx.body`, refusing more than `maxBytes` with 413 (stops reading as soon as
 * it is over, and trusts no Content-Length: the count is of bytes received).
 */
export function bodyLimit(maxBytes: number): Middleware {
  return async (ctx, next) => {
    const { request } = ctx;
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'DELETE') return next();
    const tooLarge = () => fail(413, 'REQUEST_TOO_LARGE', `The request body is over ${maxBytes} bytes.`, { connection: 'close' }, 'Send shorter code: award_data is already loaded, so no data needs to be sent.');
    if (Number(request.headers.get('content-length') ?? 0) > maxBytes) return tooLarge();
    if (request.body) {
      const reader = request.body.getReader();
      const chunks: Uint8Array[] = [];
      let size = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          await reader.cancel().catch(() => undefined);
          return tooLarge();
        }
        chunks.push(value);
      }
      ctx.body = Buffer.concat(chunks).toString('utf8');
    }
    return next();
  };
}
