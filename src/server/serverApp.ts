import type { DataCardView } from '../adapters/description.js';
import type { SandboxOptions } from '../sandbox/options.js';
import type { ServerMetrics } from './metrics.js';
import type { ServerSessions } from './sessions/serverSessions.js';
import type { SharedStore } from './store/sharedStore.js';
import type { Viewer } from '../viewer/createViewer.js';

/** What routes reach: the server's parts, built once by createServer(). */
export interface ServerApp {
  sessions: ServerSessions;
  store: SharedStore;
  metrics: ServerMetrics;
  sandbox: Omit<SandboxOptions, 'pool' | 'deterministic'>;
  /** The data card, computed once at start (it also proves the data opens and a holder runs). */
  card: () => Promise<DataCardView>;
  description: string;
  /** What the MCP `add_table` tool accepts. */
  uploads: { maxUploadBytes: number; allowTableUrls: boolean; allowPrivateTableUrls?: boolean };
  /** Longest a request waits for its session or its Idempotency-Key. */
  lockWaitMs: number;
  /** Each readiness check; all true -> ready. */
  readiness(): Promise<Record<string, boolean>>;
  onError(err: unknown): void;
  /** Characters of run output a model reads per MCP tool call (the server's default; see routes/mcp.ts). */
  maxResultChars: number;
  /** The viewer of the capsule log at /ui (only with a capsule log). */
  viewer?: Viewer;
}
