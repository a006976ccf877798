import { healthz, readyz } from './health.js';
import { mcpDelete, mcpGet, mcpPost } from './mcp.js';
import { metrics } from './metrics.js';
import { runRoute } from './run.js';
import type { Route } from './route.js';
import { UI_ROUTES } from './ui.js';
import { createSession, deleteSession, listSessions } from './sessions.js';

/**
 * Every route of `sbirtools serve`, in one table: adding a surface (e.g. the viewer at `/ui`) is one
 * row here, and it gets the same middleware (host check, body limit, API key, rate limit).
 */
export const ROUTES: readonly Route[] = [
  healthz,
  readyz,
  metrics,
  runRoute,
  createSession,
  listSessions,
  deleteSession,
  mcpPost,
  mcpGet,
  mcpDelete,
  ...UI_ROUTES,
];
