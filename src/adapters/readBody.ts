import { SbirtoolsError } from '../core/errors.js';
/** The body sent nothing for longer than readBody's `idleMs`. */
export class BodyIdleError extends SbirtoolsError {
  constructor(readonly idleMs: number) {
    super('BODY_IDLE', `The request body sent nothing for ${idleMs} ms.`);
  }
}

/**
 * A request body as text, or undefined when it is over `max` bytes. Stops reading as soon as it is
 * over and trusts no Content-Length beyond refusing one that is already too large: the count is of
 * bytes received. Over the cap the stream is left unread, not cancelled, so a server can answer
 * first and then drain or close the connection (a cancel would reset it before the answer).
 * @throws {BodyIdleError} when `idleMs` is given and the body stalls that long.
 * @example const text = await readBody(request, 1_048_576); // undefined -> answer 413
 */
export async function readBody(request: Request, max: number, idleMs?: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > max) return undefined;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = idleMs ? await withIdle(reader.read(), idleMs) : await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) return undefined;
      chunks.push(value);
    }
  } finally {
    try {
      reader.releaseLock();
    } catch {
      // a read still pending (the idle case) on an older stream implementation: the caller closes the connection
    }
  }
  // (no Buffer: the edge worker reads bodies here too)
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

function withIdle<T>(read: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    read,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new BodyIdleError(ms)), ms))),
  ]).finally(() => clearTimeout(timer));
}
