import type { Route } from '../context.js';

export type { Route };

/** The route for `method path`, with its parameters; `allowed` lists the methods of a known path. */
export function matchRoute(
  routes: readonly Route[],
  method: string,
  path: string,
): { route?: Route; params: Record<string, string>; allowed: string[] } {
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
