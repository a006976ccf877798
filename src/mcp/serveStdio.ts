import { shutdownDefaultBackends as shutdown } from '../sandbox/defaultBackend.js';
import { BoundedStdioTransport } from './boundedStdioTransport.js';
import { createMcpServer, type McpServerOptions } from './createMcpServer.js';
import { DEFAULT_MAX_UPLOAD_BYTES } from './registerTableTools.js';

/**
 * Serve MCP over this process's stdin/stdout until stdin closes, the client disconnects, or
 * SIGINT/SIGTERM; then close every session and stop the holder processes (none is orphaned).
 * Resolves once everything is closed; the caller then exits with code 0.
 * @example await serveStdio({ sandbox: { preset: 'standard' } }); process.exit(0);
 */
export async function serveStdio(options: McpServerOptions = {}): Promise<void> {
  // stdout carries JSON-RPC only: a stray console.log (ours or a dependency's) would corrupt it.
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = console.error;
  // the first call's sandbox opens now, while the client starts and its model thinks (sessionStore.ts `standby`)
  const app = await createMcpServer({ standby: true, ...options }).catch((err: unknown) => {
    Object.assign(console, saved);
    throw err;
  });
  // room for an add_table upload at its cap (base64 is 4/3 of the bytes), so an upload a little
  // over it gets add_table's typed error; a message past this gets a JSON-RPC error and the server
  // keeps serving (the SDK's own stdio transport would close the connection)
  const maxUpload = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const transport = new BoundedStdioTransport(Math.ceil((maxUpload * 4) / 3) + 16 * 1024 * 1024);
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const onSignal = () => stop();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.stdin.once('end', stop);
  process.stdin.once('close', stop);
  await app.connect(transport);
  const previous = app.server.server.onclose;
  app.server.server.onclose = () => {
    previous?.();
    stop();
  };
  try {
    await stopped;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await app.close();
    await shutdown();
    Object.assign(console, saved);
  }
}
