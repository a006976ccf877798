import type { CapsuleRecord } from '../../capsule/capsuleRecord.js';
import type { RequestContext } from '../context.js';
import { fail } from '../respond.js';
import type { ServerApp } from '../serverApp.js';
import type { Route } from './route.js';

/** Name of the cookie that carries a browser's API key to the /ui routes. */
export const UI_KEY_COOKIE = 'sbirtools_key';

// A key sees only its own runs: records carry the id of the key that ran them. Without keys
// (loopback only) everything is 'local', and records written elsewhere (no key) show too.
const scopeOf = (ctx: RequestContext) => ({
  filter: (r: CapsuleRecord & { key?: string }) =>
    r.key === ctx.keyId || (ctx.keyId === 'local' && r.key === undefined),
});

async function handle(ctx: RequestContext, app: ServerApp): Promise<Response> {
  if (!app.viewer)
    return fail(
      404,
      'NOT_FOUND',
      'The viewer shows the capsule log, and this server has none.',
      {},
      'Start the server with --capsule-log <file> --capsule-outputs.',
    );
  // /ui/?key=<key> (already checked by the API-key middleware): keep the key in an HttpOnly,
  // SameSite=Strict cookie and drop it from the address bar (and from history and logs after this)
  const key = ctx.url.searchParams.get('key');
  if (key !== null) {
    const rest = new URLSearchParams(ctx.url.searchParams);
    rest.delete('key');
    const query = rest.toString();
    return new Response(null, {
      status: 303,
      headers: {
        location: `${ctx.url.pathname}${query ? `?${query}` : ''}`,
        'set-cookie': `${UI_KEY_COOKIE}=${encodeURIComponent(key)}; Path=/ui; HttpOnly; SameSite=Strict`,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      },
    });
  }
  // the body-limit middleware has read the body already: hand the viewer a fresh request
  const request =
    ctx.request.method === 'POST'
      ? new Request(ctx.request.url, {
          method: 'POST',
          headers: ctx.request.headers,
          body: ctx.body,
          signal: ctx.request.signal,
        })
      : ctx.request;
  return app.viewer.fetch(request, scopeOf(ctx));
}

const row = (method: 'GET' | 'POST', path: string, isRun?: boolean): Route => ({
  method,
  path,
  auth: true,
  browser: true,
  ...(isRun ? { isRun: () => true, chargedByHead: true } : {}),
  handle,
});

/**
 * The viewer (src/viewer/createViewer.ts) at /ui, behind the same API key as every route and
 * showing only that key's runs. Browsers, which cannot send `Authorization` when they navigate,
 * open `/ui/?key=<key>` once and then carry the key in a cookie (like Jupyter's `?token=`).
 * Replay runs code, so it counts against the key's concurrency and runs per minute.
 */
export const UI_ROUTES: readonly Route[] = [
  row('GET', '/ui'),
  row('GET', '/ui/'),
  row('GET', '/ui/events'),
  row('GET', '/ui/fragment'),
  row('GET', '/ui/text'),
  row('POST', '/ui/replay', true),
];
