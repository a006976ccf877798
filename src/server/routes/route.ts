import type { RequestContext } from '../context.js';
import type { ServerApp } from '../serverApp.js';

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
  handle(ctx: RequestContext, app: ServerApp): Promise<Response>;
}

/** The route for `method path`, with its parameters; `allowed` lists the methods of a known path. */
export function matchRoute(routes: readonly Route[], method: string, path: string): { route?: Route; params: Record<string, string>; allowed: string[] } {
  const parts = path.split('/');
  const allowed: string[] = [];
  for (const route of routes) {
    const want = route.path.split('/');
    if (want.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = want.every((seg, i) => {
      if (seg.startsWith(':')) {
        if (!parts[i]) return false;
        try {
          params[seg.slice(1)] = decodeURIComponent(parts[i]!);
        } catch {
          // a malformed escape stays as sent; the route's own validation refuses it with a 400
          params[seg.slice(1)] = parts[i]!;
        }
        return true;
      }
      return seg === parts[i];
    });
    if (!ok) continue;
    if (route.method === method) return { route, params, allowed };
    allowed.push(route.method);
  }
  return { params: {}, allowed };
}
