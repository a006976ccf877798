import type { KeyRing } from '../apiKeys.js';
import type { Middleware } from '../context.js';
import { apiKey } from '../middleware/apiKey.js';
import { fail } from '../respond.js';
import { scopeFor } from './scopes.js';
import { TokenError, type OAuthVerifier } from './oauthVerifier.js';

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Where the protected-resource metadata of `audience` is served (RFC 9728 section 3.1: the resource's path after the well-known name). */
export function resourceMetadataUrl(audience: string): string {
  const u = new URL(audience);
  const path = u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '');
  return `${u.origin}/.well-known/oauth-protected-resource${path}`;
}

/**
 * Authentication for every route that needs it: without OAuth, the API keys (apiKey). With OAuth,
 * a bearer JWT is verified against the issuer (the owner of its sessions, limits and idempotency
 * keys is then its subject, `ctx.keyId` = a hash of issuer + `sub`), and the route's scope is
 * required; a bearer that is not a JWT is tried as an API key when the server has keys. A missing
 * or refused token gets 401 with `WWW-Authenticate: Bearer resource_metadata="..."` naming the
 * protected-resource metadata; a token without the scope gets 403 `insufficient_scope`.
 */
export function authenticate(ring: KeyRing, verifier: OAuthVerifier | undefined): Middleware {
  const keys = apiKey(ring);
  if (!verifier) return keys;
  const metadata = resourceMetadataUrl(verifier.options.audience);
  const challenge = (extra = '') => ({ 'www-authenticate': `Bearer resource_metadata="${metadata}"${extra}` });
  return async (ctx, next) => {
    if (!ctx.route.auth) return next();
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(ctx.request.headers.get('authorization') ?? '');
    const token = match?.[1];
    if (!token || !JWT.test(token)) {
      // an API key (or the viewer's cookie) still works beside OAuth when the server has keys
      if (!ring.open && (token || ctx.route.browser)) return keys(ctx, next);
      return fail(
        401,
        'UNAUTHORIZED',
        'This server needs an OAuth access token: send `Authorization: Bearer <token>`.',
        challenge(),
        `Get a token from the authorization server named in ${metadata} (for the resource ${verifier.options.audience}).`,
      );
    }
    let who;
    try {
      who = await verifier.verify(token);
    } catch (err) {
      if (!(err instanceof TokenError)) throw err;
      if (err.code === 'temporarily_unavailable')
        return fail(
          503,
          'AUTH_UNAVAILABLE',
          err.message,
          { 'retry-after': '5', 'sbirtools-code-ran': 'false' },
          "Retry shortly; the operator should check that the issuer's metadata and JWKS are reachable.",
        );
      return fail(
        401,
        'UNAUTHORIZED',
        err.message,
        challenge(`, error="invalid_token", error_description="${err.message.replace(/["\\]/g, '')}"`),
      );
    }
    const scope = scopeFor(ctx.route.path);
    if (scope && !who.scopes.includes(scope)) {
      return fail(
        403,
        'FORBIDDEN',
        `The access token lacks the scope \`${scope}\` this route needs (it has: ${who.scopes.join(' ') || 'none'}).`,
        challenge(`, error="insufficient_scope", scope="${scope}"`),
        `Request a token with scope ${scope}.`,
      );
    }
    ctx.keyId = who.ownerId;
    // one budget per OAuth subject (ownerId hashes issuer + sub), shared with REST, MCP and sessions
    ctx.identity = { kind: 'oauth', id: who.ownerId };
    ctx.log.key = who.ownerId;
    ctx.log.subject = who.subject;
    return next();
  };
}
