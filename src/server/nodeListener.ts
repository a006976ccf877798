import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { answerInternalError, nodeRequest } from '../adapters/nodeRequest.js';

/**
 * Serve a Fetch handler from `node:http`, streaming the response body (MCP may answer with an
 * event stream). A client that hangs up aborts the request's signal, which cancels its run.
 */
export function nodeListener(handler: (request: Request) => Promise<Response>): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    // a fixed origin: the Host header is checked by the host-check middleware, never trusted here
    handler(nodeRequest(req, res, 'http://sbirtools.invalid'))
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (!response.body) return void res.end();
        Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).on('error', () => res.destroy()).pipe(res);
      })
      .catch(() => answerInternalError(res));
  };
}
