import type { KeyRing } from '../apiKeys.js';
import type { Middleware } from '../context.js';
import { keyIdentity, LOCAL_IDENTITY } from '../limits/identity.js';
import { fail } from '../respond.js';
import { UI_KEY_COOKIE } from '../routes/ui.js';

function cookieValue(header: string | null, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) {
      try {
        return decodeURIComponent(v.join('='));
      } catch {
        return null;
      }
    }
  }
  return null;
}

/**
 * `Authorization: Bearer <key>` on every route that needs it (all but the health checks) when the
 * server has keys; 401 for a missing or unknown key. Sets `ctx.keyId`, which scopes sessions,
 * limits and idempotency keys.
 */
export function apiKey(ring: KeyRing): Middleware {
  return async (ctx, next) => {
    if (!ctx.route.auth) return next();
    if (ring.open) {
      ctx.identity ??= LOCAL_IDENTITY;
      return next();
    }
    const header = ctx.request.headers.get('authorization') ?? '';
    // a browser cannot send Authorization when it navigates: the viewer's routes also take the key
    // from their HttpOnly SameSite=Strict cookie, or once from ?key= (routes/ui.ts sets the cookie)
    const browserKey =
      ctx.route.browser && !header
        ? (cookieValue(ctx.request.headers.get('cookie'), UI_KEY_COOKIE) ?? ctx.url.searchParams.get('key'))
        : null;
    const match = browserKey ? ['', browserKey] : /^Bearer[ ]+(\S+)\s*$/i.exec(header);
    const challenge = { 'www-authenticate': 'Bearer realm="sbirtools"' };
    if (!match)
      return fail(
        401,
        'UNAUTHORIZED',
        'This server needs an API key: send `Authorization: Bearer <key>`.',
        challenge,
        'Ask the operator for a key (SBIRTOOLS_API_KEYS on the server).',
      );
    const id = ring.identify(match[1]!);
    if (!id)
      return fail(401, 'UNAUTHORIZED', "The API key is not one of this server's keys.", {
        ...challenge,
        'www-authenticate': 'Bearer realm="sbirtools", error="invalid_token"',
      });
    // the key's hash id, never the header text: every spelling of one key is one identity and one budget
    ctx.keyId = id;
    ctx.identity = keyIdentity(id);
    ctx.log.key = id;
    return next();
  };
}
