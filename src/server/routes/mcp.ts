import { createMcpServer } from '../../mcp/createMcpServer.js';
import { InflightCalls } from '../../mcp/inflightCalls.js';
import { notificationsOnly } from '../../mcp/notificationsOnly.js';
import { statelessRequest } from '../../mcp/statelessRequest.js';
import { resolveMaxChars } from '../../sandbox/textBudget.js';
import { json } from '../respond.js';
import { KeySessionStore } from '../sessions/keySessionStore.js';
import type { RequestContext } from '../context.js';
import type { Route } from './route.js';

const notAllowed = () =>
  json(
    {
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message:
          'Method not allowed: this MCP server is stateless (no server-initiated streams, no MCP session to delete). POST JSON-RPC messages to /mcp.',
      },
      id: null,
    },
    405,
    { allow: 'POST' },
  );

type Message = {
  method?: unknown;
  id?: unknown;
  params?: { requestId?: unknown; reason?: unknown; _meta?: { progressToken?: unknown } };
};

const messagesOf = (body: unknown): Message[] =>
  (Array.isArray(body) ? body : [body]).filter((m): m is Message => !!m && typeof m === 'object');

/** A JSON-RPC message (or a batch) that calls a tool: it runs code, so it counts against the key's limits. */
function callsTool(ctx: RequestContext): boolean {
  try {
    return messagesOf(JSON.parse(ctx.body)).some((m) => m.method === 'tools/call');
  } catch {
    return false;
  }
}

// this replica's requests in flight, so a cancel sent in another POST reaches its run
const inflight = new InflightCalls();

/**
 * `POST /mcp`: MCP over Streamable HTTP in the SDK's stateless mode. Each request gets a fresh
 * McpServer (createMcpServer: the same tools and resources as stdio) over the SDK's transport, so
 * no MCP session is pinned to a replica; a tool's `session_id` lives in the key's server sessions.
 * - A request of the 2026-07-28 revision (version in `_meta`, no initialize) is served as well
 *   (statelessRequest); `server/discover` answers either generation.
 * - Cancel: a dropped connection or a closed response stream closes the server, which aborts its
 *   runs; `notifications/cancelled` (in a later POST) aborts the named request of the same key.
 * - A `tools/call` with a `progressToken` from a client that accepts `text/event-stream` is
 *   answered as a stream, so progress notifications reach it while the code runs.
 */
export const mcpPost: Route = {
  method: 'POST',
  path: '/mcp',
  auth: true,
  isRun: callsTool,
  handle: async (ctx, app) => {
    let parsedBody: unknown;
    try {
      parsedBody = JSON.parse(ctx.body);
    } catch {
      return json(
        { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not JSON.' }, id: null },
        400,
      );
    }
    const messages = messagesOf(parsedBody);
    for (const m of messages) {
      if (
        m.method === 'notifications/cancelled' &&
        (typeof m.params?.requestId === 'string' || typeof m.params?.requestId === 'number')
      ) {
        inflight.cancel(
          ctx.keyId,
          m.params.requestId,
          typeof m.params.reason === 'string' ? m.params.reason : undefined,
        );
      }
    }
    const stateless = statelessRequest(ctx.request, messages);
    if (stateless.error) return stateless.error;
    const request = stateless.request;
    // notifications alone change nothing in a stateless server: 202 without building one (a
    // flood of them must not cost a server, a transport and the key's sessions each)
    if (notificationsOnly(request, stateless.body ?? parsedBody))
      return await stateless.finish(new Response(null, { status: 202 }));
    const accepts = /text\/event-stream/.test(request.headers.get('accept') ?? '');
    const stream =
      accepts && messages.some((m) => m.method === 'tools/call' && m.params?._meta?.progressToken !== undefined);
    const budget = budgetOf(ctx);
    if ('error' in budget)
      return json({ jsonrpc: '2.0', error: { code: -32602, message: budget.error }, id: null }, 400);
    const sessions = await new KeySessionStore(app.sessions, ctx.keyId, app.sandbox, {
      ...(ctx.priority ? { priority: ctx.priority } : {}),
      charge: (cpuMs) => (ctx.cpuMs = (ctx.cpuMs ?? 0) + cpuMs),
    }).load();
    const server = await createMcpServer({
      sessions,
      card: app.card,
      description: app.description,
      sandbox: app.sandbox,
      onError: app.onError,
      maxUploadBytes: app.uploads.maxUploadBytes,
      allowTableUrls: app.uploads.allowTableUrls,
      allowPrivateTableUrls: app.uploads.allowPrivateTableUrls === true,
      keepFullResults: false,
      maxResultChars: budget.maxResultChars ?? app.maxResultChars,
    });
    const { WebStandardStreamableHTTPServerTransport } = await import('../../vendor/mcpSdk.js');
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !stream,
    });
    await server.connect(transport);
    const cancel = new AbortController();
    let closed: Promise<void> | undefined;
    // closing the server aborts every request handler (the SDK's onclose), so the runs stop
    const close = () =>
      (closed ??= (async () => {
        forget();
        await transport.close().catch(() => undefined);
        await server.close();
      })());
    const ids = messages
      .filter((m) => m.method !== undefined && (typeof m.id === 'string' || typeof m.id === 'number'))
      .map((m) => m.id as string | number);
    const forget = inflight.track(ctx.keyId, ids, cancel);
    // a cancelled request gets no answer from the SDK (its handler was aborted): answer it here, so
    // the route returns and the key's run slot is freed as soon as the run stops
    let answerCancelled!: (r: Response) => void;
    const cancelled = new Promise<Response>((resolve) => (answerCancelled = resolve));
    const onAbort = () => {
      void close();
      answerCancelled(
        json(
          ids.length === 1
            ? { jsonrpc: '2.0', id: ids[0], error: { code: -32800, message: 'Request cancelled.' } }
            : ids.map((id) => ({ jsonrpc: '2.0', id, error: { code: -32800, message: 'Request cancelled.' } })),
        ),
      );
    };
    ctx.request.signal.addEventListener('abort', onAbort, { once: true });
    cancel.signal.addEventListener('abort', onAbort, { once: true });
    let streaming = false;
    try {
      const response = await Promise.race([
        transport.handleRequest(request, {
          parsedBody: stateless.body ?? parsedBody,
          authInfo: { token: '', clientId: ctx.keyId, scopes: [] },
        }),
        cancelled,
      ]);
      if (!response.body || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream'))
        return await stateless.finish(response);
      // a stream: the server lives until the stream ends (its last answer sent) or the client leaves
      streaming = true;
      const done = () => {
        ctx.request.signal.removeEventListener('abort', onAbort);
        void close();
      };
      const finished = await stateless.finish(response);
      const body = finished.body!.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: done }));
      return new Response(body, { status: finished.status, headers: finished.headers });
    } finally {
      if (!streaming) {
        ctx.request.signal.removeEventListener('abort', onAbort);
        await close();
      }
    }
  },
};

/** The text budget a client set for its connection (its session): the `sbirtools-max-result-chars` header. */
function budgetOf(ctx: RequestContext): { maxResultChars?: number } | { error: string } {
  const h = ctx.request.headers.get('sbirtools-max-result-chars');
  if (!h) return {};
  try {
    return { maxResultChars: resolveMaxChars(h, 'sbirtools-max-result-chars header') };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** `GET /mcp` and `DELETE /mcp`: 405 (stateless server), as the spec allows. */
export const mcpGet: Route = { method: 'GET', path: '/mcp', auth: true, handle: async () => notAllowed() };
export const mcpDelete: Route = { method: 'DELETE', path: '/mcp', auth: true, handle: async () => notAllowed() };
