import { createMcpServer } from '../../mcp/createMcpServer.js';
import { json } from '../respond.js';
import { KeySessionStore } from '../sessions/keySessionStore.js';
import type { RequestContext } from '../context.js';
import type { Route } from './route.js';

const notAllowed = () =>
  json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless (no server-initiated streams, no MCP session to delete). POST JSON-RPC messages to /mcp.' }, id: null }, 405, { allow: 'POST' });

/** A JSON-RPC message (or a batch) that calls a tool: it runs code, so it counts against the key's limits. */
function callsTool(ctx: RequestContext): boolean {
  try {
    const msg = JSON.parse(ctx.body) as unknown;
    return (Array.isArray(msg) ? msg : [msg]).some((m) => (m as { method?: unknown })?.method === 'tools/call');
  } catch {
    return false;
  }
}

/**
 * `POST /mcp`: MCP over Streamable HTTP in the SDK's stateless mode. Each request gets a fresh
 * McpServer (createMcpServer: the same tools and resources as stdio) over the SDK's transport, so
 * no MCP session is pinned to a replica; a tool's `session_id` lives in the key's server sessions.
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
      return json({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not JSON.' }, id: null }, 400);
    }
    const sessions = await new KeySessionStore(app.sessions, ctx.keyId, app.sandbox).load();
    const server = await createMcpServer({ sessions, card: app.card, description: app.description, sandbox: app.sandbox, onError: app.onError, maxUploadBytes: app.uploads.maxUploadBytes, allowTableUrls: app.uploads.allowTableUrls, allowPrivateTableUrls: app.uploads.allowPrivateTableUrls === true });
    const { WebStandardStreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js');
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(ctx.request, { parsedBody, authInfo: { token: '', clientId: ctx.keyId, scopes: [] } });
    } finally {
      await transport.close().catch(() => undefined);
      await server.close();
    }
  },
};

/** `GET /mcp` and `DELETE /mcp`: 405 (stateless server), as the spec allows. */
export const mcpGet: Route = { method: 'GET', path: '/mcp', auth: true, handle: async () => notAllowed() };
export const mcpDelete: Route = { method: 'DELETE', path: '/mcp', auth: true, handle: async () => notAllowed() };
