import {
  LEGACY_TRANSPORT_VERSION,
  META_PROTOCOL_VERSION,
  SERVED_PROTOCOL_VERSIONS,
  STATELESS_PROTOCOL_VERSION,
} from './discover.js';

type Message = { method?: unknown; id?: unknown; params?: { _meta?: Record<string, unknown> } };

/** What statelessRequest() decided about one POST. */
export interface StatelessRequest {
  /** The request to give the SDK transport (its version header rewritten for a 2026-07-28 request). */
  request: Request;
  /** The body, when it changed (never, today: the `_meta` keys pass through as they are). */
  body?: unknown;
  /** An answer to send instead (a version the server does not speak, or a header that contradicts `_meta`). */
  error?: Response;
  /** Applied to the SDK's answer: a 2026-07-28 answer names its version, and its results carry `resultType` (and cache hints). */
  finish(response: Response): Response | Promise<Response>;
}

/** Results a 2026-07-28 client may cache (SEP-2549): they carry `ttlMs` and `cacheScope`. */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/**
 * A JSON-RPC answer as the 2026-07-28 revision wants it: every result says `resultType: "complete"`;
 * a cacheable one also `ttlMs: 0` (no freshness promised: a key's tables change the tool list) and
 * `cacheScope: "private"` (the list depends on the caller).
 */
function stampResult(message: unknown, methods: Map<unknown, unknown>): unknown {
  const m = message as { id?: unknown; result?: Record<string, unknown> };
  if (!m || typeof m !== 'object' || !m.result || typeof m.result !== 'object') return message;
  const cacheable = CACHEABLE.has(methods.get(m.id) as string);
  return {
    ...m,
    result: { ...m.result, resultType: 'complete', ...(cacheable ? { ttlMs: 0, cacheScope: 'private' } : {}) },
  };
}

/** Stamp each `data:` line of an SSE stream that holds a JSON-RPC result. */
function stampStream(body: ReadableStream<Uint8Array>, methods: Map<unknown, unknown>): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  const line = (l: string) => {
    if (!l.startsWith('data: ')) return l;
    try {
      return `data: ${JSON.stringify(stampResult(JSON.parse(l.slice(6)), methods))}`;
    } catch {
      return l;
    }
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending += decoder.decode(chunk, { stream: true });
        const at = pending.lastIndexOf('\n');
        if (at < 0) return;
        controller.enqueue(encoder.encode(`${pending.slice(0, at).split('\n').map(line).join('\n')}\n`));
        pending = pending.slice(at + 1);
      },
      flush(controller) {
        if (pending) controller.enqueue(encoder.encode(line(pending)));
      },
    }),
  );
}

const rpcError = (status: number, id: unknown, code: number, message: string, data?: unknown) =>
  new Response(
    JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error: { code, message, ...(data ? { data } : {}) } }),
    { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } },
  );

/**
 * The thin layer that lets the SDK (which speaks up to 2025-11-25) serve the stateless 2026-07-28
 * revision on the same endpoint: a request whose `MCP-Protocol-Version` header or
 * `params._meta["io.modelcontextprotocol/protocolVersion"]` names 2026-07-28 needs no initialize
 * (the server is stateless already), and reaches the SDK transport with a version header it
 * accepts; the answer carries the 2026-07-28 header back. A `_meta` version the server does not
 * speak is answered with the versions it does; a header that contradicts `_meta` is a 400.
 * @example const s = statelessRequest(request, messages); if (s.error) return s.error;
 */
export function statelessRequest(request: Request, messages: Message[]): StatelessRequest {
  const header = request.headers.get('mcp-protocol-version');
  const same = { request, finish: (r: Response) => r };
  for (const m of messages) {
    const v = m.params?._meta?.[META_PROTOCOL_VERSION];
    if (v === undefined) continue;
    if (typeof v !== 'string' || !SERVED_PROTOCOL_VERSIONS.includes(v)) {
      return {
        ...same,
        error: rpcError(
          400,
          m.id,
          -32602,
          `Unsupported protocol version ${JSON.stringify(v)}: this server speaks ${SERVED_PROTOCOL_VERSIONS.join(', ')}.`,
          { supported: SERVED_PROTOCOL_VERSIONS, requested: v },
        ),
      };
    }
    if (header && header !== v) {
      return {
        ...same,
        error: rpcError(
          400,
          m.id,
          -32602,
          `The MCP-Protocol-Version header (${header}) does not match params._meta["${META_PROTOCOL_VERSION}"] (${v}); send the same version in both.`,
        ),
      };
    }
  }
  const stateless =
    header === STATELESS_PROTOCOL_VERSION ||
    messages.some((m) => m.params?._meta?.[META_PROTOCOL_VERSION] === STATELESS_PROTOCOL_VERSION);
  if (!stateless) return same;
  const headers = new Headers(request.headers);
  headers.set('mcp-protocol-version', LEGACY_TRANSPORT_VERSION);
  const rewritten = new Request(request.url, { method: request.method, headers, signal: request.signal });
  return {
    request: rewritten,
    async finish(response) {
      const h = new Headers(response.headers);
      h.set('mcp-protocol-version', STATELESS_PROTOCOL_VERSION);
      const methods = new Map<unknown, unknown>(
        messages.filter((m) => m.id !== undefined).map((m) => [m.id, m.method]),
      );
      const type = response.headers.get('content-type') ?? '';
      if (response.body && type.startsWith('text/event-stream'))
        return new Response(stampStream(response.body, methods), { status: response.status, headers: h });
      if (!response.body || !type.startsWith('application/json'))
        return new Response(response.body, { status: response.status, headers: h });
      const parsed = (await response.json()) as unknown;
      const stamped = Array.isArray(parsed) ? parsed.map((m) => stampResult(m, methods)) : stampResult(parsed, methods);
      h.delete('content-length');
      return new Response(JSON.stringify(stamped), { status: response.status, headers: h });
    },
  };
}
