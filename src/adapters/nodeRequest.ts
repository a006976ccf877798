import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/**
 * A Fetch `Request` for a `node:http` request: headers copied, the body streamed (not for GET and
 * HEAD), and a signal that aborts when the client hangs up before the answer is written.
 * @example const request = nodeRequest(req, res, `http://${req.headers.host ?? 'localhost'}`);
 */
export function nodeRequest(req: IncomingMessage, res: ServerResponse, base: string): Request {
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', base), {
    method: req.method ?? 'GET',
    headers,
    signal: abort.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
}

/** The answer when the handler itself failed (headers may already be out). */
export function answerInternalError(res: ServerResponse): void {
  if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
  res.end('{"error":{"type":"INTERNAL_ERROR","message":"The server failed to answer."}}');
}
