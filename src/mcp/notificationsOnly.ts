import { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS } from '../vendor/mcpSdk.js';

/** The SDK transport's cap on a JSON-RPC batch (requestBody.js MAX_BATCH_SIZE). */
const MAX_BATCH = 100;

/**
 * Whether a POST to a stateless MCP endpoint carries only notifications (or responses) that the
 * SDK's transport would accept and answer `202 Accepted` with nothing else to do: every message a
 * valid JSON-RPC message without a request among them, the headers the transport checks (Accept,
 * Content-Type, a supported `Mcp-Protocol-Version`) in order. Such a POST needs no McpServer: a
 * stateless server keeps nothing a notification could change (`notifications/cancelled` is
 * applied by the route before this). Anything else, valid or not, is left to the SDK, which
 * answers it or refuses it with its own error.
 * @example if (notificationsOnly(request, parsedBody)) return new Response(null, { status: 202 });
 */
export function notificationsOnly(request: Request, body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0 || messages.length > MAX_BATCH) return false;
  const accept = request.headers.get('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return false;
  const version = request.headers.get('mcp-protocol-version');
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return false;
  for (const m of messages) {
    if (!m || typeof m !== 'object') return false;
    // a request (method and id) needs the server; a notification has no id, a response no method
    if ('method' in m && 'id' in m) return false;
    if (!JSONRPCMessageSchema.safeParse(m).success) return false;
  }
  return true;
}
