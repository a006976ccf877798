import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerInternalError, nodeRequest } from '../adapters/nodeRequest.js';
import { CONNECTION_DEFAULTS, type ConnectionLimits } from './limits/connectionLimits.js';
import { drainBody } from './limits/drainBody.js';
import { writeResponse } from './limits/writeResponse.js';

/** Answer before a Request is even built: the head is over a cap. */
function refuseHead(res: ServerResponse, status: 414 | 431, type: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', connection: 'close' });
  res.end(JSON.stringify({ error: { type, message } }));
}

/**
 * Serve a Fetch handler from `node:http`, streaming the response body (MCP may answer with an
 * event stream). A client that hangs up aborts the request's signal, which cancels its run; a
 * client that stops reading is dropped after `writeTimeoutMs` (the same). A request whose head
 * is over a cap (header count 431, target length 414) is answered here, before anything else.
 */
export function nodeListener(
  handler: (request: Request) => Promise<Response>,
  limits: ConnectionLimits = CONNECTION_DEFAULTS,
  onSlowReader?: () => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    // node caps the head's bytes (maxHeaderSize); the count of lines and the target are ours
    if (req.rawHeaders.length / 2 > limits.maxHeaderCount) {
      return refuseHead(
        res,
        431,
        'HEADERS_TOO_LARGE',
        `The request has ${req.rawHeaders.length / 2} header lines; the limit is ${limits.maxHeaderCount}.`,
      );
    }
    if ((req.url ?? '').length > limits.maxUrlBytes) {
      return refuseHead(
        res,
        414,
        'URL_TOO_LONG',
        `The request target is ${(req.url ?? '').length} bytes; the limit is ${limits.maxUrlBytes}. Send data in the body.`,
      );
    }
    // a fixed origin: the Host header is checked by the host-check middleware, never trusted here
    const request = nodeRequest(req, res, 'http://sbirtools.invalid');
    res.once('finish', () => drainBody(req, request.body, limits.maxDrainBytes, limits.bodyIdleTimeoutMs));
    handler(request)
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (!response.body) return void res.end();
        await writeResponse(res, response.body, limits.writeTimeoutMs, onSlowReader);
      })
      .catch(() => answerInternalError(res));
  };
}
