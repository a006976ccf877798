import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerInternalError, nodeRequest } from './nodeRequest.js';

/**
 * Serve a Fetch API handler (createHandler()) from `node:http`: IncomingMessage -> Request,
 * Response -> ServerResponse. A client that hangs up aborts the run.
 * @example http.createServer(toNodeListener(createHandler())).listen(8080);
 */
export function toNodeListener(
  handler: (request: Request) => Promise<Response>,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handler(nodeRequest(req, res, `http://${req.headers.host ?? 'localhost'}`))
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch(() => answerInternalError(res));
  };
}
