import type { SandboxOptions } from '../sandbox/options.js';
import type { Route } from './routes/route.js';
import type { OAuthOptions } from './auth/oauthOptions.js';

/** Options of createServer() (and the flags of `sbirtools serve`). */
export interface ServerOptions {
  /** Interface to listen on. Anything but loopback requires API keys. @default '127.0.0.1' */
  host?: string;
  /** Port; 0 picks a free one (see `server.url`). @default $PORT, else 8787 */
  port?: number;
  /** Bearer keys. @default $SBIRTOOLS_API_KEYS (comma-separated) or the lines of $SBIRTOOLS_API_KEYS_FILE */
  apiKeys?: string[];
  /** OAuth 2.1 resource server: accept bearer JWT access tokens from this issuer, for this audience (beside `apiKeys`). @default $SBIRTOOLS_OAUTH_ISSUER / $SBIRTOOLS_OAUTH_AUDIENCE */
  oauth?: Partial<OAuthOptions>;
  /** Characters of run output a model reads per MCP tool call (a client's `sbirtools-max-result-chars` header or a call's `max_chars` overrides it). @default $SBIRTOOLS_MAX_RESULT_CHARS, else 16000 */
  maxResultChars?: number;
  /** Redis for scale-out (sessions, idempotency, rate windows shared by replicas). @default $SBIRTOOLS_REDIS_URL, else in memory */
  redisUrl?: string;
  /** Prefix of every Redis key. @default 'sbirtools:' */
  redisPrefix?: string;
  /** Options of every sandbox (preset, limits, dataPath...). */
  sandbox?: Omit<SandboxOptions, 'pool' | 'deterministic'>;
  /** Holder processes of this replica. @default 1 */
  poolSize?: number;
  /** Runs executing at once on this replica. @default poolSize * 2 */
  maxConcurrentRuns?: number;
  /** Runs of one caller (API key or OAuth subject) executing at once, across replicas when the store is Redis. @default 4 */
  maxConcurrentPerKey?: number;
  /** Runs plus session creations of one caller in any 60 s (a sliding window), across replicas. @default 120 */
  runsPerMinutePerKey?: number;
  /** Fraction of this replica's run slots (`maxConcurrentRuns`) one caller may hold; at least one slot. @default 0.5 */
  maxReplicaSharePerKey?: number;
  /**
   * CPU priority (`nice`, 1-19) of the holder that runs the code of a caller over its fair share of
   * this replica's run time, so that its slots take the cores only when other callers' runs leave
   * some; 0 turns it off. @default 10
   */
  overShareNice?: number;
  /** Runs of one caller waiting for a slot on this replica before more get 429. @default 8 */
  maxQueuedPerKey?: number;
  /** Longest a run waits for a slot on this replica before it gets 503 SERVER_BUSY. @default 10000 */
  maxQueueWaitMs?: number;
  /**
   * A caller refused with 429 that comes back before its Retry-After is refused again without a
   * look, its answer held until that Retry-After, at most this long; 0 answers it at once. @default 5000
   */
  maxRefusalHoldMs?: number;
  /** Refusals held at once on this replica (above); past it they are sent at once with `Connection: close`. @default 1000 */
  maxHeldRefusals?: number;
  /** Longest any Redis command may take before it counts as a failure (503 STORE_UNAVAILABLE where needed). @default 2000 */
  redisCommandTimeoutMs?: number;
  /** Longest budgets (and runs without a session) wait for the store before this replica decides alone (limits then hold per replica). @default 1000 */
  storeWaitMs?: number;
  /** `key`: /metrics needs an API key like every route; `none`: open (for a scraper on a private network). @default $SBIRTOOLS_METRICS_AUTH, else 'key' */
  metricsAuth?: 'key' | 'none';
  /** The request line and headers must arrive within this. @default 5000 */
  headersTimeoutMs?: number;
  /** The whole request, body included, must arrive within this. @default 60000 */
  requestTimeoutMs?: number;
  /** A request body that sends nothing for this long gets 408 and the connection closes. @default 10000 */
  bodyIdleTimeoutMs?: number;
  /** A client that accepts none of its answer for this long is dropped, and its run cancelled. @default 15000 */
  writeTimeoutMs?: number;
  /** An idle keep-alive connection closes after this. @default 5000 */
  keepAliveTimeoutMs?: number;
  /** Largest request head (request line + headers), bytes: 431 past it. @default 16384 */
  maxHeaderBytes?: number;
  /** Most header lines: 431 past it. @default 100 */
  maxHeaderCount?: number;
  /** Longest request target (path + query), bytes: 414 past it. @default 4096 */
  maxUrlBytes?: number;
  /** Bytes of a refused body read and dropped after the answer (so the client reads it) before the connection is closed instead. @default 1048576 */
  maxDrainBytes?: number;
  /** Largest request body, in bytes. @default 2 * maxCodeBytes + 4096 */
  maxBodyBytes?: number;
  /** Largest table the MCP `add_table` tool accepts (decoded bytes); `/mcp` bodies may be that much larger (base64). @default 4194304 (4 MiB) */
  maxUploadBytes?: number;
  /** Let `add_table` download a `url` a model names (the server then fetches URLs: keep off where it can reach internal addresses). @default false */
  allowTableUrls?: boolean;
  /** With allowTableUrls: also fetch loopback, private and link-local addresses. @default false (public internet addresses only) */
  allowPrivateTableUrls?: boolean;
  /** Host names the server answers to (DNS-rebinding protection). @default loopback names on loopback; any elsewhere */
  allowedHosts?: string[];
  /** Web origins allowed to call the API from a browser (CORS). @default none */
  corsOrigins?: string[];
  /** On close()/SIGTERM, how long runs in flight may finish before they are cut. @default 30000 */
  graceMs?: number;
  /** A session unused this long is forgotten. @default 3600000 (1 h) */
  sessionTtlMs?: number;
  /** Session isolates this replica keeps (least recently used closed past it; rebuilt on demand). @default 64 */
  maxLocalSessions?: number;
  /** Replay caps for rebuilding a session on another replica. @default 500 cells, 4 MiB of code, 60000 ms */
  maxReplayCells?: number;
  maxReplayBytes?: number;
  maxReplayMs?: number;
  /** Append a capsule record (with the key id) of every run to this JSONL file. */
  capsuleLog?: string;
  /** Also keep each run's outputs in the capsule log, for the viewer at /ui. @default false */
  capsuleOutputs?: boolean;
  /** The viewer's Replay button at /ui (it re-runs a key's own recorded run; counts as a run). @default true */
  viewerReplay?: boolean;
  /** More routes (e.g. the viewer at /ui); they get the same middleware chain. */
  routes?: Route[];
  /** One JSON object per request; `false` for no logs. @default a line on stdout */
  log?: ((line: Record<string, unknown>) => void) | false;
  /** Environment to read SBIRTOOLS_* settings from. @default process.env */
  env?: NodeJS.ProcessEnv;
}

/** True for names and addresses that only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
