/**
 * The limits a replica puts on every connection, whatever the route: how long a peer may take to
 * send headers and a body, how long a reader may stall, and how large a request's head may be.
 * Defaults live here, once; docs/deploy.md lists them.
 */
export interface ConnectionLimits {
  /** The request line and headers must arrive within this (node `headersTimeout`; 408 and close). @default 5000 */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this (node `requestTimeout`; 408 and close). @default 60000 */
  requestTimeoutMs: number;
  /** A body that sends nothing for this long is refused (408 and close). @default 10000 */
  bodyIdleTimeoutMs: number;
  /** A client that reads none of its answer for this long is dropped (socket destroyed, its run cancelled). @default 15000 */
  writeTimeoutMs: number;
  /** Keep-alive: an idle connection is closed after this. @default 5000 */
  keepAliveTimeoutMs: number;
  /** Largest request head (request line + headers) in bytes (node `maxHeaderSize`; 431). @default 16384 */
  maxHeaderBytes: number;
  /** Most header lines in one request (431). @default 100 */
  maxHeaderCount: number;
  /** Longest request target (path + query) in bytes (414). @default 4096 */
  maxUrlBytes: number;
  /** After an early answer (413, 408...), bytes of the unread body read and dropped so the client sees the answer, before the connection is closed instead. @default 1048576 */
  maxDrainBytes: number;
}

/** The defaults of every connection limit (createServer() options override each). */
export const CONNECTION_DEFAULTS: ConnectionLimits = {
  headersTimeoutMs: 5000,
  requestTimeoutMs: 60_000,
  bodyIdleTimeoutMs: 10_000,
  writeTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5000,
  maxHeaderBytes: 16_384,
  maxHeaderCount: 100,
  maxUrlBytes: 4096,
  maxDrainBytes: 1_048_576,
};

/**
 * The `node:http` server options for these limits. `connectionsCheckingInterval` is what makes
 * the header and request timeouts fire on time (node checks every 30 s by default). The header
 * count is not here: node drops lines past `maxHeadersCount` silently, so the server sets it to 0
 * and nodeListener counts them and answers 431 (their total size stays bounded by maxHeaderSize).
 */
export function httpServerOptions(l: ConnectionLimits): import('node:http').ServerOptions {
  return {
    headersTimeout: l.headersTimeoutMs,
    requestTimeout: l.requestTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, l.headersTimeoutMs),
    keepAliveTimeout: l.keepAliveTimeoutMs,
    maxHeaderSize: l.maxHeaderBytes,
  };
}
