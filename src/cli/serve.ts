import { createServer } from '../server/createServer.js';
import type { ServerOptions } from '../server/options.js';
import { intFlag, parseCommandArgs, UsageError, type CliIo } from './args.js';
import { EXIT } from './exitCodes.js';
import { SANDBOX_FLAGS, SANDBOX_FLAGS_HELP, sandboxOptionsFrom } from './sandboxFlags.js';
import { jsonTerminalSafe } from './terminalSafe.js';
import { limitsLine } from './limitsLine.js';

export const SERVE_HELP = `Usage: sbirtools serve [options]

Serve sbirtools over HTTP: MCP (Streamable HTTP) at /mcp, REST at /v1/run and /v1/sessions,
/healthz, /readyz and /metrics. Prints the URL when ready; SIGTERM/SIGINT drain and exit 0.

Options:
  --host <addr>              interface to listen on (default 127.0.0.1; anything else needs API keys)
  --port <n>                 port (default $PORT, else 8787; 0 picks a free one)
  --redis <url>              Redis for several replicas (default $SBIRTOOLS_REDIS_URL; none: in memory)
${SANDBOX_FLAGS_HELP}
  --pool-size <n>            holder processes of this replica (default 1)
  --max-concurrent-runs <n>  runs executing at once on this replica (default 2 per holder)
  --max-concurrent-per-key <n>  runs of one caller at once, across replicas (default 4)
  --runs-per-minute <n>      runs + session creations of one caller in any 60 s (default 120)
  --max-queued-per-key <n>   runs of one caller waiting on this replica before 429 (default 8)
  --max-queue-wait-ms <ms>   longest wait for a run slot before 503 SERVER_BUSY (default 10000)
  --over-share-nice <n>      CPU priority (nice 1-19) of the code of a caller over its fair share
                             of this replica's run time (default 10; 0: off)
  --max-refusal-hold-ms <ms>  a caller back before its Retry-After waits up to this for its
                             next 429 (default 5000; 0: answered at once)
  --redis-timeout-ms <ms>    longest any Redis command may take (default 2000)
  --headers-timeout-ms <ms>  request line + headers must arrive within (default 5000)
  --request-timeout-ms <ms>  whole request must arrive within (default 60000)
  --body-idle-timeout-ms <ms>  a body silent this long gets 408 (default 10000)
  --write-timeout-ms <ms>    a client reading none of its answer this long is dropped (default 15000)
  --metrics-auth <key|none>  /metrics needs a key (default) or is open ($SBIRTOOLS_METRICS_AUTH)
  --max-body-bytes <n>       largest request body (default 2 x the code cap + 4096; /mcp also
                             fits an add_table upload)
  --max-upload-bytes <n>     largest table add_table accepts (default 4194304, 4 MiB)
  --max-result-chars <n>     characters of run output a model reads per MCP call (default 16000;
                             a client's sbirtools-max-result-chars header or a call's max_chars overrides it)
  --oauth-issuer <url>       accept OAuth access tokens (JWT) from this issuer (its metadata gives the keys)
  --oauth-audience <url>     this server's resource URL, which tokens must name in aud (e.g. https://host/mcp)
  --allow-table-urls         add_table may download a url the model names (default: refused)
  --allow-private-table-urls with --allow-table-urls: also loopback, private, link-local addresses
  --allowed-hosts <list>     comma-separated host names to answer to (DNS-rebinding protection)
  --cors-origin <list>       comma-separated web origins allowed to call from a browser (default none)
  --grace-ms <ms>            on SIGTERM, how long runs in flight may finish (default 30000)
  --session-ttl-ms <ms>      forget a session unused this long (default 3600000)
  --max-local-sessions <n>   session isolates this replica keeps (default 64; others rebuilt on demand)
  --max-replay-cells <n>     rebuild caps: cells (default 500), bytes of code (--max-replay-bytes,
  --max-replay-bytes <n>       default 4194304) and time (--max-replay-ms, default 60000); over a cap
  --max-replay-ms <ms>         the session is reset (sessionReset) instead of replayed
  --capsule-log <file>       append a capsule record (with the key id) of every run (JSONL);
                             the viewer at /ui shows each key its own runs (browsers: /ui/?key=<key>)
  --capsule-outputs          also keep each run's outputs in the log (what /ui shows)
  --quiet                    no per-request JSON log lines
  -h, --help                 show this help

Environment:
  SBIRTOOLS_API_KEYS         comma-separated bearer keys (every route but /healthz and /readyz needs one)
  SBIRTOOLS_API_KEYS_FILE    a file with one key per line, instead
  SBIRTOOLS_REDIS_URL        as --redis (redis://[:password@]host:port, or rediss:// for TLS)
  SBIRTOOLS_OAUTH_ISSUER     as --oauth-issuer
  SBIRTOOLS_OAUTH_AUDIENCE   as --oauth-audience
  SBIRTOOLS_MAX_RESULT_CHARS as --max-result-chars
  SBIRTOOLS_METRICS_AUTH     as --metrics-auth
  PORT                       as --port

MCP client config: {"mcpServers": {"sbirtools": {"url": "http://127.0.0.1:8787/mcp"}}}. Docs: docs/deploy.md.`;

const list = (v: string | boolean | undefined) =>
  v === undefined
    ? undefined
    : String(v)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

/** `sbirtools serve`: listens until SIGTERM/SIGINT, then drains; returns the exit code. */
export async function serveCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('serve', argv, {
    ...SANDBOX_FLAGS,
    host: { type: 'string' },
    port: { type: 'string' },
    redis: { type: 'string' },
    'pool-size': { type: 'string' },
    'max-concurrent-runs': { type: 'string' },
    'max-concurrent-per-key': { type: 'string' },
    'runs-per-minute': { type: 'string' },
    'max-queued-per-key': { type: 'string' },
    'max-queue-wait-ms': { type: 'string' },
    'over-share-nice': { type: 'string' },
    'max-refusal-hold-ms': { type: 'string' },
    'redis-timeout-ms': { type: 'string' },
    'headers-timeout-ms': { type: 'string' },
    'request-timeout-ms': { type: 'string' },
    'body-idle-timeout-ms': { type: 'string' },
    'write-timeout-ms': { type: 'string' },
    'metrics-auth': { type: 'string' },
    'max-body-bytes': { type: 'string' },
    'max-upload-bytes': { type: 'string' },
    'allow-table-urls': { type: 'boolean' },
    'allow-private-table-urls': { type: 'boolean' },
    'max-result-chars': { type: 'string' },
    'oauth-issuer': { type: 'string' },
    'oauth-audience': { type: 'string' },
    'allowed-hosts': { type: 'string' },
    'cors-origin': { type: 'string' },
    'grace-ms': { type: 'string' },
    'session-ttl-ms': { type: 'string' },
    'max-local-sessions': { type: 'string' },
    'max-replay-cells': { type: 'string' },
    'max-replay-bytes': { type: 'string' },
    'max-replay-ms': { type: 'string' },
    'capsule-log': { type: 'string' },
    'capsule-outputs': { type: 'boolean' },
    quiet: { type: 'boolean' },
  });
  if (values.help) {
    io.stdout.write(`${SERVE_HELP}\n`);
    return EXIT.OK;
  }
  if (positionals.length) throw new UsageError('serve', `unexpected argument '${positionals[0]}'`);
  // $PORT is how Cloud Run, Heroku-style hosts and most container platforms name the port
  const portText = values.port ?? (io.env.PORT ? String(io.env.PORT) : undefined);
  const port = portText === '0' ? 0 : intFlag('serve', 'port', portText, 'port');
  if (port !== undefined && port > 65535) throw new UsageError('serve', `--port expects 0-65535, got '${port}'`);
  const n = (flag: string, unit: string) => intFlag('serve', flag, values[flag], unit);
  const options: ServerOptions = {
    sandbox: sandboxOptionsFrom('serve', values),
    env: io.env,
    ...(values.host !== undefined ? { host: String(values.host) } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(values.redis !== undefined ? { redisUrl: String(values.redis) } : {}),
    ...(n('pool-size', 'processes') ? { poolSize: n('pool-size', 'processes') } : {}),
    ...(n('max-concurrent-runs', 'runs') ? { maxConcurrentRuns: n('max-concurrent-runs', 'runs') } : {}),
    ...(n('max-concurrent-per-key', 'runs') ? { maxConcurrentPerKey: n('max-concurrent-per-key', 'runs') } : {}),
    ...(n('runs-per-minute', 'runs') ? { runsPerMinutePerKey: n('runs-per-minute', 'runs') } : {}),
    ...(n('max-queued-per-key', 'runs') !== undefined ? { maxQueuedPerKey: n('max-queued-per-key', 'runs') } : {}),
    ...(n('max-queue-wait-ms', 'milliseconds') ? { maxQueueWaitMs: n('max-queue-wait-ms', 'milliseconds') } : {}),
    ...(values['over-share-nice'] === '0'
      ? { overShareNice: 0 }
      : n('over-share-nice', 'nice levels (1-19; 0 turns it off)') !== undefined
        ? { overShareNice: n('over-share-nice', 'nice levels (1-19; 0 turns it off)') }
        : {}),
    ...(values['max-refusal-hold-ms'] === '0'
      ? { maxRefusalHoldMs: 0 }
      : n('max-refusal-hold-ms', 'milliseconds') !== undefined
        ? { maxRefusalHoldMs: n('max-refusal-hold-ms', 'milliseconds') }
        : {}),
    ...(n('redis-timeout-ms', 'milliseconds') ? { redisCommandTimeoutMs: n('redis-timeout-ms', 'milliseconds') } : {}),
    ...(n('headers-timeout-ms', 'milliseconds') ? { headersTimeoutMs: n('headers-timeout-ms', 'milliseconds') } : {}),
    ...(n('request-timeout-ms', 'milliseconds') ? { requestTimeoutMs: n('request-timeout-ms', 'milliseconds') } : {}),
    ...(n('body-idle-timeout-ms', 'milliseconds')
      ? { bodyIdleTimeoutMs: n('body-idle-timeout-ms', 'milliseconds') }
      : {}),
    ...(n('write-timeout-ms', 'milliseconds') ? { writeTimeoutMs: n('write-timeout-ms', 'milliseconds') } : {}),
    ...(values['metrics-auth'] !== undefined ? { metricsAuth: String(values['metrics-auth']) as 'key' | 'none' } : {}),
    ...(n('max-body-bytes', 'bytes') ? { maxBodyBytes: n('max-body-bytes', 'bytes') } : {}),
    ...(n('max-upload-bytes', 'bytes') ? { maxUploadBytes: n('max-upload-bytes', 'bytes') } : {}),
    ...(values['allow-table-urls'] === true ? { allowTableUrls: true } : {}),
    ...(values['allow-private-table-urls'] === true ? { allowPrivateTableUrls: true } : {}),
    ...(n('max-result-chars', 'characters') ? { maxResultChars: n('max-result-chars', 'characters') } : {}),
    ...(values['oauth-issuer'] !== undefined || values['oauth-audience'] !== undefined
      ? {
          oauth: {
            ...(values['oauth-issuer'] !== undefined ? { issuer: String(values['oauth-issuer']) } : {}),
            ...(values['oauth-audience'] !== undefined ? { audience: String(values['oauth-audience']) } : {}),
          },
        }
      : {}),
    ...(n('grace-ms', 'milliseconds') ? { graceMs: n('grace-ms', 'milliseconds') } : {}),
    ...(n('session-ttl-ms', 'milliseconds') ? { sessionTtlMs: n('session-ttl-ms', 'milliseconds') } : {}),
    ...(n('max-local-sessions', 'sessions') ? { maxLocalSessions: n('max-local-sessions', 'sessions') } : {}),
    ...(n('max-replay-cells', 'cells') ? { maxReplayCells: n('max-replay-cells', 'cells') } : {}),
    ...(n('max-replay-bytes', 'bytes') ? { maxReplayBytes: n('max-replay-bytes', 'bytes') } : {}),
    ...(n('max-replay-ms', 'milliseconds') ? { maxReplayMs: n('max-replay-ms', 'milliseconds') } : {}),
    ...(list(values['allowed-hosts']) ? { allowedHosts: list(values['allowed-hosts'])! } : {}),
    ...(list(values['cors-origin']) ? { corsOrigins: list(values['cors-origin'])! } : {}),
    ...(values['capsule-log'] !== undefined
      ? { capsuleLog: String(values['capsule-log']), capsuleOutputs: values['capsule-outputs'] === true }
      : {}),
    log: values.quiet ? false : (line) => io.stdout.write(`${jsonTerminalSafe(JSON.stringify(line))}\n`),
  };
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    const server = await createServer(options);
    io.stderr.write(`sbirtools serve: listening on ${server.url} (MCP: ${server.url}/mcp)\n`);
    io.stderr.write(`sbirtools serve: ${limitsLine(server.limits)}\n`);
    await stopped;
    io.stderr.write('sbirtools serve: draining\n');
    await server.close();
    io.stderr.write('sbirtools serve: stopped\n');
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
  return EXIT.OK;
}
