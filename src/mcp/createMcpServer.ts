import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpSdkServer, McpTransport } from './publicTypes.js';
import { loadDataCard, type DataCardView } from '../adapters/description.js';
import { toolDescription } from '../sandbox/toolDescription.js';
import { createSessionStore, type SessionStore, type SessionStoreOptions } from '../adapters/sessionStore.js';
import { packageInfo } from '../capsule/packageInfo.js';
import { registerResources } from './registerResources.js';
import { registerTools } from './registerTools.js';
import { FileStore } from './fileStore.js';
import { startTableLines } from './startTables.js';
import { registerFileResources } from './registerFileResources.js';
import { DEFAULT_MAX_UPLOAD_BYTES, registerTableTools } from './registerTableTools.js';
import { DEFAULT_MAX_STRUCTURED_CHARS } from './callToolResult.js';
import { registerDiscover } from './discover.js';
import { resolveMaxChars } from '../sandbox/textBudget.js';
import { SbirtoolsValidationError } from '../core/errors.js';

const INSTRUCTIONS =
  'Analyze US SBIR/STTR awards: call describe_dataset once, then run_analysis with JavaScript over award_data.';

/** Options of createMcpServer(): session store options plus the server's own. */
export interface McpServerOptions extends SessionStoreOptions {
  /** run_analysis's description. @default the generated description (data card + prelude summary) */
  description?: string;
  /** Called with host failures (never sent to the client in full). @default writes to stderr */
  onError?: (err: unknown) => void;
  /** Run tools in this existing store (e.g. a server's, shared by many connections); close() leaves it open. */
  sessions?: SessionStore;
  /** Load the data card through this (e.g. one card shared by many connections). @default computed once per server */
  card?: () => Promise<DataCardView>;
  /** Largest table add_table accepts, in bytes. @default 33554432 (32 MiB) */
  maxUploadBytes?: number;
  /**
   * Let add_table download a `url` (the server then fetches URLs a model names: allow it only where
   * the host cannot reach anything the model must not, since a prompt-injected model could name a
   * loopback service or a cloud metadata address). @default false
   */
  allowTableUrls?: boolean;
  /**
   * With allowTableUrls: also fetch URLs whose host is (or resolves to) a loopback, private,
   * link-local, CGNAT, multicast or other non-public address. Off, only public internet addresses
   * are fetched, checked on every redirect and DNS answer (DOWNLOAD_BLOCKED). @default false
   */
  allowPrivateTableUrls?: boolean;
  /** Memory kept for saved files clients read as resources (oldest dropped first), in bytes. @default 268435456 */
  maxKeptFileBytes?: number;
  /** Characters of run output text a model reads per call (a call's `max_chars` overrides it). @default $SBIRTOOLS_MAX_RESULT_CHARS, else 16000 */
  maxResultChars?: number;
  /** Characters of JSON a run's `structuredContent` may take (rows past it are dropped and listed in `cut`). @default 262144 */
  maxStructuredChars?: number;
  /** Keep a cut result whole as a `result.json` resource and link it from the tool result (needs one server per client, as on stdio). @default true */
  keepFullResults?: boolean;
}

/** An MCP server for sbirtools, not yet connected. */
export interface SbirtoolsMcpServer {
  /** The SDK server, for adding your own tools or resources before connect(). */
  readonly server: McpSdkServer;
  readonly sessions: SessionStore;
  connect(transport: McpTransport): Promise<void>;
  /** Close the connection and every session. Idempotent. A `pool` you passed stays open. */
  close(): Promise<void>;
}

/**
 * Create the MCP server: tools `run_analysis` ({ code, session_id? }), `describe_dataset` and
 * `add_table`, resources with the data card, the prelude reference, added tables
 * (`sbirtools://tables/{name}`) and files runs saved (`sbirtools://files/{run}/{name}`). Connect it to any MCP transport.
 * @throws {SbirtoolsValidationError} for bad limits, preset or session options.
 * @example
 * const app = await createMcpServer({ sandbox: { preset: 'strict' }, maxSessions: 8 });
 * await app.connect(new StdioServerTransport());
 */
export async function createMcpServer(options: McpServerOptions = {}): Promise<SbirtoolsMcpServer> {
  let maxChars: number;
  try {
    maxChars = resolveMaxChars(
      options.maxResultChars ?? process.env.SBIRTOOLS_MAX_RESULT_CHARS,
      options.maxResultChars === undefined ? 'SBIRTOOLS_MAX_RESULT_CHARS' : 'maxResultChars',
    );
  } catch (err) {
    throw new SbirtoolsValidationError((err as Error).message);
  }
  const maxStructuredChars = options.maxStructuredChars ?? DEFAULT_MAX_STRUCTURED_CHARS;
  if (!Number.isInteger(maxStructuredChars) || maxStructuredChars < 1024)
    throw new SbirtoolsValidationError(
      `Expected the \`maxStructuredChars\` option to be an integer >= 1024, got \`${String(maxStructuredChars)}\``,
    );
  const sessions = options.sessions ?? createSessionStore(options);
  const onError =
    options.onError ??
    ((err: unknown) => process.stderr.write(`sbirtools mcp: ${(err as Error)?.stack ?? String(err)}\n`));
  let cardPromise: Promise<DataCardView> | undefined;
  // Loaded once, on first use; a failure is retried on the next call.
  const card =
    options.card ??
    (() =>
      (cardPromise ??= loadDataCard({ ...options.sandbox, pool: options.pool }).catch((err) => {
        cardPromise = undefined;
        throw err;
      })));
  const description = options.description ?? toolDescription((await card()).json);
  // the SDK loads here, not with the library (it is a quarter of a second of imports)
  const { McpServer, ResourceTemplate } = await import('../vendor/mcpSdk.js');
  const server = new McpServer(
    { name: 'sbirtools', version: packageInfo().version },
    // logging: clients may set a level (logging/setLevel); the server sends log messages only then
    { instructions: INSTRUCTIONS, capabilities: { logging: {} } },
  );
  registerDiscover(server.server, { name: 'sbirtools', version: packageInfo().version }, INSTRUCTIONS);
  const files = new FileStore(options.maxKeptFileBytes ?? 256 * 1024 * 1024);
  const shape = { maxChars, maxStructuredChars, keepFull: options.keepFullResults !== false };
  const runTool = registerTools(server, { sessions, description, card, onError, files, shape });
  registerResources(server, card);
  registerFileResources(server, files, ResourceTemplate);
  const startTables = await startTableLines(options.sandbox, options.pool);
  registerTableTools(server, ResourceTemplate, {
    sessions,
    runTool,
    description,
    startTables,
    maxUploadBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
    cacheDir: options.sandbox?.cacheDir,
    allowUrls: options.allowTableUrls === true,
    allowPrivateUrls: options.allowPrivateTableUrls === true,
    downloadDeadlineMs: options.sandbox?.timeoutMs,
    onError,
  });
  let closed: Promise<void> | undefined;
  return {
    server,
    sessions,
    connect: (transport) => server.connect(transport as Transport),
    close: () =>
      (closed ??= (async () => {
        await server.close().catch(() => undefined);
        if (!options.sessions) await sessions.close();
      })()),
  };
}
