// Types of the public MCP API written out, so that the package's .d.ts never import the MCP SDK
// (bundled into dist/src/vendor/, not installed): a TypeScript consumer compiles without it.
/* eslint-disable @typescript-eslint/no-explicit-any -- the SDK's own signatures, not restated here */

/**
 * The MCP SDK's `McpServer` behind an sbirtools server. To add tools or resources of your own with
 * full types, install `@modelcontextprotocol/sdk` and cast:
 * `app.server as unknown as McpServer` (from '@modelcontextprotocol/sdk/server/mcp.js').
 */
export interface McpSdkServer {
  registerTool(...args: any[]): any;
  registerResource(...args: any[]): any;
  registerPrompt(...args: any[]): any;
  sendToolListChanged(): void;
  sendResourceListChanged(): void;
  readonly server: any;
}

/** An MCP transport (the SDK's `Transport`: stdio, Streamable HTTP, in-memory, or your own). */
export interface McpTransport {
  start(): Promise<void>;
  send(message: any, options?: any): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: any, extra?: any) => void) | undefined;
  sessionId?: string | undefined;
}
