import type { Identity } from './limits/identity.js';
import type { ServerApp } from './serverApp.js';

/** One row of the routes table: method, path (`:name` segments are parameters), and the handler. */
export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** Needs an API key when the server has keys (every route but the health checks). */
  auth: boolean;
  /** Opened by a browser (the viewer at /ui): the API key may also come in the `sbirtools_key` cookie or a `?key=` query. */
  browser?: boolean;
  /** True when this request runs code: it then counts against the key's concurrency and runs/minute. */
  isRun?: (ctx: RequestContext) => boolean;
  /** True when this request costs one from the caller's per-minute budget without running code (creating a session). */
  chargesBudget?: (ctx: RequestContext) => boolean;
  /**
   * `isRun` / `chargesBudget` answer from the head alone (never `ctx.body`): a caller still inside
   * the Retry-After of a refusal is then refused before its body is read (limits/refuseEarly.ts).
   */
  chargedByHead?: boolean;
  handle(ctx: RequestContext, app: ServerApp): Promise<Response>;
}

/** What middleware and routes know about one request. */
export interface RequestContext {
  request: Request;
  url: URL;
  /** Echoed in the `x-request-id` response header and every log line of the request. */
  requestId: string;
  route: Route;
  /** Path parameters (`:id`). */
  params: Record<string, string>;
  /** The body as text, read (under the cap) by the body-limit middleware. */
  body: string;
  /** Id of the API key (a hash prefix, never the key); `local` when the server has no keys. */
  keyId: string;
  /**
   * Who the caller is for budgets, normalised from the credential (a key's hash id, an OAuth
   * subject); set by authentication. Budgets fall back to `keyId` while it is unset.
   */
  identity?: Identity;
  /**
   * 'low' when this caller is over its fair share of the replica's run time (set by the budget):
   * its code runs in the low-priority holder.
   */
  priority?: 'low';
  /** CPU time this request's code used (RunResult.stats.cpuMs), set by the route; the budget charges it to the caller. */
  cpuMs?: number;
  /** Extra fields for this request's log line (session, error type...). */
  log: Record<string, unknown>;
}

/** One step of the chain: answer, or call next(). */
export type Middleware = (ctx: RequestContext, next: () => Promise<Response>) => Promise<Response>;
