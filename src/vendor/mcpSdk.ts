// The parts of the MCP SDK (@modelcontextprotocol/sdk) sbirtools runs, bundled into this one file at
// build time (scripts/build-vendor.mjs; zod stays external, it is our dependency): ~240 KB instead of
// the SDK and its express/hono/ajv tree (~29 MB installed), so `npx sbirtools mcp` needs nothing more.
export { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
export { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
export {
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
