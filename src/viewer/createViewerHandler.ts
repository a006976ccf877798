import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import type { CapsuleRecord } from '../capsule/capsuleRecord.js';
import { createViewer, type ViewerCoreOptions } from './createViewer.js';

/** Options of createViewerHandler(): createViewer's, plus a filter that sees the node request. */
export interface ViewerOptions extends ViewerCoreOptions {
  /** Which records this request may see, e.g. only the sessions of the caller's API key. @default every record */
  sessionFilter?: (record: CapsuleRecord, req: IncomingMessage) => boolean;
}

/** A node request handler for the viewer, plus close() to end live streams. */
export type ViewerHandler = ((req: IncomingMessage, res: ServerResponse) => void) & { close(): Promise<void> };

/**
 * The live viewer (createViewer) as a node `(req, res)` handler, mountable under `prefix` in any
 * node http server. `sessionFilter` is asked per request and per record.
 * @example http.createServer(createViewerHandler({ logPath: 'runs.jsonl' })).listen(0, '127.0.0.1')
 */
export function createViewerHandler(options: ViewerOptions): ViewerHandler {
  const viewer = createViewer(options);
  const handler = ((req: IncomingMessage, res: ServerResponse) => {
    const abort = new AbortController();
    res.on('close', () => abort.abort()); // ends a live stream when the page goes away
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
      else if (v !== undefined) headers.set(k, v);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(new URL(req.url ?? '/', 'http://viewer.invalid'), {
      method: req.method ?? 'GET',
      headers,
      signal: abort.signal,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
    } as RequestInit);
    const filter = options.sessionFilter;
    viewer
      .fetch(request, filter ? { filter: (r) => filter(r, req) } : {})
      .then((response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (!response.body || req.method === 'HEAD') return void res.end();
        const body = Readable.fromWeb(response.body as NodeWebStream<Uint8Array>);
        body.on('error', () => res.destroy());
        res.on('close', () => body.destroy());
        body.pipe(res);
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error":{"type":"INTERNAL_ERROR","message":"The viewer failed to answer."}}');
      });
  }) as ViewerHandler;
  handler.close = () => viewer.close();
  return handler;
}
