import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadDataCard } from '../adapters/description.js';
import { packageInfo } from '../capsule/packageInfo.js';
import { SbirtoolsValidationError } from '../core/errors.js';
import { limitsInForce, type LimitsInForce } from '../sandbox/limitsInForce.js';
import { createPool } from '../sandbox/pool.js';
import { toolDescription } from '../sandbox/toolDescription.js';
import { resolveMaxChars } from '../sandbox/textBudget.js';
import { createViewer } from '../viewer/createViewer.js';
import { loadKeyRing } from './apiKeys.js';
import { chain } from './chain.js';
import type { RequestContext } from './context.js';
import { createMetrics } from './metrics.js';
import { authenticate } from './auth/authenticate.js';
import { oauthConfig } from './auth/oauthConfig.js';
import { createOAuthVerifier } from './auth/oauthVerifier.js';
import { protectedResourceRoutes } from './auth/protectedResource.js';
import { bodyLimit } from './middleware/bodyLimit.js';
import { hostCheck } from './middleware/hostCheck.js';
import { budget } from './limits/budget.js';
import { CONNECTION_DEFAULTS, httpServerOptions, type ConnectionLimits } from './limits/connectionLimits.js';
import { FairScheduler } from './limits/fairScheduler.js';
import { RefusalPacer } from './limits/refusalPacer.js';
import { refuseEarlyAtHead } from './limits/refuseEarly.js';
import { isStoreUnavailable } from './store/storeUnavailable.js';
import { nodeListener } from './nodeListener.js';
import { isLoopback, type ServerOptions } from './options.js';
import { fail } from './respond.js';
import { matchRoute } from './routes/route.js';
import { ROUTES } from './routes/routes.js';
import type { ServerApp } from './serverApp.js';
import { ServerSessions } from './sessions/serverSessions.js';
import { createMemoryStore } from './store/memoryStore.js';
import { createRedisStore } from './store/redisStore.js';

function resultChars(value: unknown, name: string): number {
  try {
    return resolveMaxChars(value, name);
  } catch (err) {
    throw new SbirtoolsValidationError((err as Error).message);
  }
}

/** A running sbirtools service. */
export interface SbirtoolsServer {
  /** `http://host:port`, e.g. for an MCP client: `${url}/mcp`. */
  readonly url: string;
  readonly port: number;
  /**
   * The limits that apply to its runs (reported in the start log line): a session's, and the
   * host-scaled ones of a session with tables (MCP `add_table`), which may hold a quarter of host memory.
   */
  readonly limits: LimitsInForce;
  /** The whole service as a Fetch handler (what the HTTP listener calls). */
  fetch(request: Request): Promise<Response>;
  /** Graceful: not-ready, refuse new work (503), let runs in flight finish up to `graceMs`, close holders and the store. Idempotent. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Start the service: MCP over Streamable HTTP at `/mcp`, REST `/v1/run` and `/v1/sessions`,
 * `/healthz`, `/readyz`, `/metrics`. Resolves once it listens (after opening the data once).
 * @throws {SbirtoolsValidationError} for a bad option, or a non-loopback host without API keys.
 * @throws {SbirtoolsError} `STORE_UNAVAILABLE` when Redis cannot be reached; data errors (DATA_NOT_FOUND...).
 * @example
 * const server = await createServer({ port: 0, redisUrl: process.env.SBIRTOOLS_REDIS_URL });
 * console.log(`${server.url}/mcp`);
 */
export async function createServer(options: ServerOptions = {}): Promise<SbirtoolsServer> {
  const env = options.env ?? process.env;
  const host = options.host ?? '127.0.0.1';
  const ring = loadKeyRing(options.apiKeys, env);
  const oauth = oauthConfig(options.oauth, env);
  if (ring.open && !oauth && !isLoopback(host)) {
    throw new SbirtoolsValidationError(
      `Listening on ${host} (not loopback) needs API keys or OAuth: set SBIRTOOLS_API_KEYS (comma-separated) or SBIRTOOLS_API_KEYS_FILE, or --oauth-issuer and --oauth-audience.`,
    );
  }
  const int = (name: keyof ServerOptions, fallback: number, min = 1) => {
    const v = options[name] ?? fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min)
      throw new SbirtoolsValidationError(
        `Expected the \`${name}\` option to be an integer >= ${min}, got \`${String(v)}\``,
      );
    return v;
  };
  const sandbox = options.sandbox ?? {};
  // what applies to a run, the host-scaled limits of a session with tables included (reported at start)
  const inForce = limitsInForce(sandbox);
  const limits = inForce.run;
  // $PORT as platforms set it (Heroku, Cloud Run, Render...); the option or --port wins
  const envPort = env.PORT !== undefined && env.PORT !== '' ? Number(env.PORT) : undefined;
  if (
    options.port === undefined &&
    envPort !== undefined &&
    !(Number.isInteger(envPort) && envPort >= 0 && envPort <= 65535)
  ) {
    throw new SbirtoolsValidationError(`Expected $PORT to be a port number 0-65535, got \`${env.PORT}\``);
  }
  const port = int('port', envPort ?? 8787, 0);
  const poolSize = int('poolSize', 1);
  const graceMs = int('graceMs', 30_000, 0);
  const maxBody = int('maxBodyBytes', 2 * limits.maxCodeBytes + 4096);
  const uploads = {
    maxUploadBytes: int('maxUploadBytes', 4 * 1048576),
    allowTableUrls: options.allowTableUrls === true,
    allowPrivateTableUrls: options.allowPrivateTableUrls === true,
  };
  const maxResultChars = resultChars(
    options.maxResultChars ?? env.SBIRTOOLS_MAX_RESULT_CHARS,
    options.maxResultChars === undefined ? 'SBIRTOOLS_MAX_RESULT_CHARS' : 'maxResultChars',
  );
  // an add_table upload arrives base64-encoded inside a JSON-RPC message on /mcp
  const mcpBody = Math.max(maxBody, Math.ceil((uploads.maxUploadBytes * 4) / 3) + 65_536);
  const caps = {
    maxReplayCells: int('maxReplayCells', 500),
    maxReplayBytes: int('maxReplayBytes', 4 * 1048576),
    maxReplayMs: int('maxReplayMs', 60_000),
  };
  // budgets wait this long for Redis before a replica decides alone: long enough that a busy Redis
  // still counts across replicas, short enough that a hung one delays a one-off run by at most this
  const storeWaitMs = int('storeWaitMs', 1000);
  const overShareNice = int('overShareNice', 10, 0);
  if (overShareNice > 19)
    throw new SbirtoolsValidationError(
      `Expected the \`overShareNice\` option to be an integer 0-19 (a nice value; 0 turns it off), got \`${overShareNice}\``,
    );
  // a caller that comes back inside its Retry-After waits that long for its next refusal
  const pacing = {
    maxRefusalHoldMs: int('maxRefusalHoldMs', 5000, 0),
    maxHeldRefusals: int('maxHeldRefusals', 1000, 0),
  };
  const rate = {
    maxConcurrentPerKey: int('maxConcurrentPerKey', 4),
    runsPerMinutePerKey: int('runsPerMinutePerKey', 120),
    storeWaitMs,
  };
  const conn: ConnectionLimits = Object.fromEntries(
    Object.entries(CONNECTION_DEFAULTS).map(([k, d]) => [k, int(k as keyof ServerOptions, d)]),
  ) as unknown as ConnectionLimits;
  if (conn.headersTimeoutMs > conn.requestTimeoutMs)
    throw new SbirtoolsValidationError(
      `Expected \`headersTimeoutMs\` (${conn.headersTimeoutMs}) to be at most \`requestTimeoutMs\` (${conn.requestTimeoutMs})`,
    );
  const share = options.maxReplicaSharePerKey ?? 0.5;
  if (typeof share !== 'number' || !(share > 0 && share <= 1))
    throw new SbirtoolsValidationError(
      `Expected the \`maxReplicaSharePerKey\` option to be a fraction in (0, 1], got \`${String(share)}\``,
    );
  const metricsAuth = options.metricsAuth ?? (env.SBIRTOOLS_METRICS_AUTH as ServerOptions['metricsAuth']) ?? 'key';
  if (metricsAuth !== 'key' && metricsAuth !== 'none')
    throw new SbirtoolsValidationError(
      `Expected \`metricsAuth\` (or SBIRTOOLS_METRICS_AUTH) to be 'key' or 'none', got \`${String(metricsAuth)}\``,
    );
  const lockWaitMs = 2 * limits.timeoutMs + caps.maxReplayMs + 5000;
  const log =
    options.log === false
      ? () => undefined
      : (options.log ?? ((line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`)));
  const onError = (err: unknown) =>
    log({ time: new Date().toISOString(), level: 'error', message: (err as Error)?.stack ?? String(err) });

  const redisUrl = options.redisUrl ?? env.SBIRTOOLS_REDIS_URL;
  const store = redisUrl
    ? await createRedisStore({
        url: redisUrl,
        commandTimeoutMs: int('redisCommandTimeoutMs', 2000),
        ...(options.redisPrefix ? { prefix: options.redisPrefix } : {}),
      })
    : createMemoryStore();
  const maxConcurrentRuns = int('maxConcurrentRuns', poolSize * 2);
  // the low-priority lane has slots of its own: a caller over its share then holds none of the normal ones
  const lowCapacity = overShareNice > 0 ? maxConcurrentRuns : 0;
  const pool = createPool({
    size: poolSize,
    maxConcurrent: maxConcurrentRuns + lowCapacity,
    lowPriorityNice: overShareNice,
  });
  // fairness: one caller holds at most its share of this replica's run slots; the rest wait in its own queue
  const scheduler = new FairScheduler({
    capacity: maxConcurrentRuns,
    lowCapacity,
    maxPerKey: Math.max(1, Math.floor(maxConcurrentRuns * share)),
    maxQueuedPerKey: int('maxQueuedPerKey', 8, 0),
    maxQueueWaitMs: int('maxQueueWaitMs', 10_000),
  });
  const pacer = new RefusalPacer(pacing);
  let card;
  try {
    // the card proves the data opens and a holder runs code before the server says it is up
    card = await loadDataCard({ ...sandbox, pool });
  } catch (err) {
    await pool.close();
    await store.close();
    throw err;
  }
  const cardView = card;
  // loaded with the server, not with the library; spans are no-ops unless the deployer registers an SDK
  const { trace, SpanStatusCode } = await import('@opentelemetry/api');
  const tracer = trace.getTracer('sbirtools', packageInfo().version);
  const pidsSeen = new Set<number>();
  const metrics = await createMetrics({
    openSessions: () => sessions.localCount,
    queueDepth: () => pool.stats().queued,
    activeRuns: () => pool.stats().active,
    holderRestarts: () => {
      for (const pid of pool.stats().pids) pidsSeen.add(pid);
      return Math.max(0, pidsSeen.size - poolSize);
    },
    refusalsHeld: () => pacer.held,
  });
  const sessions = new ServerSessions({
    store,
    pool,
    sandbox,
    sessionTtlMs: int('sessionTtlMs', 3_600_000),
    maxLocalSessions: int('maxLocalSessions', 64),
    caps,
    lockWaitMs,
    storeWaitMs,
    ...(options.capsuleLog ? { capsuleLog: options.capsuleLog, capsuleOutputs: options.capsuleOutputs === true } : {}),
    tracer,
    observe: (event) => metrics.run(event),
  });
  let draining = false;
  const viewer = options.capsuleLog
    ? createViewer({ logPath: options.capsuleLog, prefix: '/ui', replay: options.viewerReplay !== false })
    : undefined;
  const app: ServerApp = {
    sessions,
    store,
    metrics,
    sandbox,
    card: async () => cardView,
    description: toolDescription(cardView.json),
    lockWaitMs,
    uploads,
    maxResultChars,
    onError,
    ...(viewer ? { viewer } : {}),
    readiness: async () => ({
      accepting: !draining,
      store: await store.ping(),
      holder:
        pool.stats().pids.length > 0 ||
        (await pool.run('1').then(
          (r) => r.ok,
          () => false,
        )),
    }),
  };

  const loopback = isLoopback(host);
  const allowedHosts = options.allowedHosts
    ? new Set(options.allowedHosts.map((h) => h.toLowerCase()))
    : loopback
      ? new Set(['localhost', '127.0.0.1', '[::1]', host])
      : undefined;
  const corsOrigins = new Set(options.corsOrigins ?? []);
  // /metrics open to scrapers without a key when the operator says so (keep it off the public interface then)
  const routes = [...ROUTES, ...(oauth ? protectedResourceRoutes(oauth) : []), ...(options.routes ?? [])].map((r) =>
    r.path === '/metrics' && metricsAuth === 'none' ? { ...r, auth: false } : r,
  );
  // the order is the security argument: nothing reads a body for a foreign Host or without a key,
  // nothing runs without a key, and a caller told to wait (Retry-After) is answered from the head
  const handle = chain(
    [
      hostCheck(allowedHosts, corsOrigins),
      authenticate(ring, oauth && createOAuthVerifier(oauth)),
      refuseEarlyAtHead(pacer, metrics.limited),
      bodyLimit((ctx) => (ctx.route.path === '/mcp' ? mcpBody : maxBody), conn.bodyIdleTimeoutMs),
      budget(rate, store, scheduler, pacer, metrics.limited),
    ],
    (ctx) => ctx.route.handle(ctx, app),
  );
  let inFlight = 0;
  let idle: (() => void) | undefined;

  const fetch = async (request: Request): Promise<Response> => {
    const started = performance.now();
    const given = request.headers.get('x-request-id');
    const requestId = given && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    const url = new URL(request.url);
    const origin = request.headers.get('origin');
    const cors =
      origin && corsOrigins.has(origin)
        ? {
            'access-control-allow-origin': origin,
            'access-control-expose-headers': 'x-request-id, retry-after, sbirtools-code-ran, idempotent-replayed',
            vary: 'origin',
          }
        : undefined;
    const { route, params, allowed } = matchRoute(routes, request.method, url.pathname);
    const logFields: Record<string, unknown> = {};
    const response = await tracer.startActiveSpan('sbirtools.request', async (span) => {
      try {
        span.setAttributes({
          'http.request.method': request.method,
          'url.path': url.pathname,
          'sbirtools.request_id': requestId,
        });
        if (request.method === 'OPTIONS' && cors) {
          return new Response(null, {
            status: 204,
            headers: {
              ...cors,
              'access-control-allow-methods': 'GET, POST, DELETE',
              'access-control-allow-headers':
                'authorization, content-type, idempotency-key, x-request-id, mcp-protocol-version, accept',
              'access-control-max-age': '600',
            },
          });
        }
        if (!route)
          return allowed.length
            ? fail(405, 'METHOD_NOT_ALLOWED', `${url.pathname} answers ${allowed.join(', ')}, not ${request.method}.`, {
                allow: allowed.join(', '),
              })
            : fail(
                404,
                'NOT_FOUND',
                `No route ${request.method} ${url.pathname}. Routes: /mcp, /v1/run, /v1/sessions, /healthz, /readyz, /metrics.`,
              );
        if (draining && route.auth)
          return fail(
            503,
            'SHUTTING_DOWN',
            'This replica is shutting down; the code never started.',
            { 'retry-after': '1', connection: 'close', 'sbirtools-code-ran': 'false' },
            'Retry: another replica (or this one after its restart) will answer.',
          );
        const ctx: RequestContext = {
          request,
          url,
          requestId,
          route,
          params,
          body: '',
          keyId: 'local',
          log: logFields,
        };
        try {
          return await handle(ctx);
        } catch (err) {
          if (isStoreUnavailable(err)) {
            // Redis down, hung or full: only what needs it fails, with a retryable answer
            logFields.store = err.message;
            return fail(
              503,
              'STORE_UNAVAILABLE',
              `The shared store is unavailable: ${err.message}`,
              { 'retry-after': '2' },
              'Retry in a few seconds (with the same Idempotency-Key, if you sent one); runs without a session_id keep working meanwhile.',
            );
          }
          onError(err);
          span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
          return fail(
            500,
            'INTERNAL_ERROR',
            'The server failed to answer. Retry; if it keeps failing, the operator should check the server logs.',
          );
        }
      } finally {
        span.end();
      }
    });
    response.headers.set('x-request-id', requestId);
    if (cors) for (const [k, v] of Object.entries(cors)) response.headers.set(k, v);
    metrics.request(route?.path ?? 'unmatched', request.method, response.status);
    log({
      time: new Date().toISOString(),
      level: response.status >= 500 ? 'error' : 'info',
      requestId,
      method: request.method,
      path: url.pathname,
      status: response.status,
      ms: Math.round(performance.now() - started),
      ...logFields,
    });
    return response;
  };

  const listener = nodeListener(fetch, conn, () => metrics.slowReader());
  // counted until the answer is written out, not just computed: the drain waits for the bytes
  const server: Server = createHttpServer(httpServerOptions(conn), (req, res) => {
    inFlight++;
    res.once('close', () => {
      if (--inFlight === 0) idle?.();
    });
    listener(req, res);
  });
  server.maxHeadersCount = 0; // no silent drop: nodeListener counts header lines and answers 431
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  }).catch(async (err: NodeJS.ErrnoException) => {
    await sessions.close();
    await pool.close();
    await store.close();
    throw new SbirtoolsValidationError(
      `Cannot listen on ${host}:${port}: ${err.code ?? err.message}${err.code === 'EADDRINUSE' ? ' (the port is taken: pick another with --port)' : ''}.`,
    );
  });
  const bound = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  // one line at start with every limit a run meets, the host-scaled ones included: a session with
  // a table of its caller's gets tableMemoryLimitMb, not the preset's heap (size replicas for it)
  log({ time: new Date().toISOString(), level: 'info', message: 'limits in force', limits: inForce });
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      draining = true;
      pacer.releaseAll(); // held refusals go out now, not after their Retry-After
      await viewer?.close(); // ends the viewers' live streams, so the drain does not wait on them
      server.close();
      server.closeIdleConnections();
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          idle = resolve;
          setTimeout(resolve, graceMs).unref();
        });
      }
      server.closeAllConnections();
      await sessions.close();
      await pool.close();
      await store.close();
    })());
  return {
    url: `http://${shownHost}:${bound}`,
    port: bound,
    limits: inForce,
    fetch,
    close,
    [Symbol.asyncDispose]: close,
  };
}
