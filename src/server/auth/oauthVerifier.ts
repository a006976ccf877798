import { createHash } from 'node:crypto';
import { SbirtoolsError } from '../../core/errors.js';
import { isLoopback } from '../options.js';
import type { OAuthOptions } from './oauthConfig.js';

/** Who a valid access token speaks for. */
export interface TokenIdentity {
  /** The token's `sub`. */
  subject: string;
  /** A short id of issuer + subject (hex), used where API keys use their key id: sessions, limits, idempotency. */
  ownerId: string;
  /** The token's scopes (`scope`, space-separated, or `scp`). */
  scopes: string[];
  /** `client_id` or `azp`, when present. */
  clientId?: string;
}

/** Why a token was refused, for the `WWW-Authenticate` header and the error body. */
export class TokenError extends SbirtoolsError {
  /** `invalid_token` (RFC 6750) for a token that fails; `temporarily_unavailable` when the keys cannot be fetched. */
  declare readonly code: 'invalid_token' | 'temporarily_unavailable';
  constructor(message: string, code: 'invalid_token' | 'temporarily_unavailable' = 'invalid_token') {
    super(code, message);
  }
}

/** Verifies bearer JWT access tokens for one issuer and audience. */
export interface OAuthVerifier {
  readonly options: OAuthOptions;
  /** @throws {TokenError} for any token that is not valid here. */
  verify(token: string): Promise<TokenIdentity>;
}

/**
 * A verifier for `options.issuer`: its JWKS is found through the issuer's metadata
 * (`/.well-known/oauth-authorization-server`, else `/.well-known/openid-configuration`, whose
 * `issuer` must match), fetched by `jose` and cached; a token signed with a key id not in the cache
 * fetches the set again (key rotation; concurrent fetches are shared). A token must be signed with
 * an allowed algorithm, name the issuer (`iss`) and this server (`aud`), and be within `exp`/`nbf`.
 * @example const v = createOAuthVerifier(config); const who = await v.verify(token);
 */
export function createOAuthVerifier(options: OAuthOptions): OAuthVerifier {
  let keys: Promise<Parameters<typeof import('jose').jwtVerify>[1]> | undefined;
  const jwks = () =>
    (keys ??= (async () => {
      const { createRemoteJWKSet } = await import('jose');
      const jwksUri = await discoverJwksUri(options.issuer);
      // cooldown 0: a new key id refetches at once (rotation); jose shares one fetch between callers
      return createRemoteJWKSet(new URL(jwksUri), {
        cacheMaxAge: options.jwksCacheMs ?? 600_000,
        cooldownDuration: 0,
        timeoutDuration: 5000,
      });
    })().catch((err: unknown) => {
      keys = undefined; // the metadata is looked up again on the next token
      throw err;
    }));
  return {
    options,
    async verify(token) {
      const jose = await import('jose');
      let keySet;
      try {
        keySet = await jwks();
      } catch (err) {
        throw new TokenError(
          `The authorization server's keys could not be fetched (${(err as Error).message}).`,
          'temporarily_unavailable',
        );
      }
      try {
        const { payload } = await jose.jwtVerify(token, keySet as never, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms: options.algorithms!,
          clockTolerance: options.clockToleranceSec ?? 30,
          requiredClaims: ['exp', 'sub'],
        });
        const scope =
          typeof payload.scope === 'string'
            ? payload.scope.split(' ')
            : Array.isArray(payload.scp)
              ? payload.scp.map(String)
              : [];
        const clientId =
          typeof payload.client_id === 'string'
            ? payload.client_id
            : typeof payload.azp === 'string'
              ? payload.azp
              : undefined;
        const subject = payload.sub!;
        return {
          subject,
          ownerId: `t${createHash('sha256').update(`${options.issuer}\u0000${subject}`).digest('hex').slice(0, 15)}`,
          scopes: scope.filter(Boolean),
          ...(clientId ? { clientId } : {}),
        };
      } catch (err) {
        throw new TokenError(reason(err, jose));
      }
    },
  };
}

/** A reason a client (or its developer) can act on, never the token itself. */
function reason(err: unknown, jose: typeof import('jose')): string {
  const e = err as { code?: string; claim?: string; message?: string };
  if (err instanceof jose.errors.JWTExpired)
    return 'The access token has expired: get a new one from the authorization server.';
  if (err instanceof jose.errors.JWTClaimValidationFailed) {
    if (e.claim === 'aud')
      return 'The access token is not for this server (its `aud` does not name this resource): request a token for this resource.';
    if (e.claim === 'iss') return 'The access token comes from another issuer than this server trusts.';
    if (e.claim === 'nbf') return 'The access token is not valid yet (`nbf`).';
    return `The access token's \`${e.claim}\` claim is missing or invalid.`;
  }
  if (err instanceof jose.errors.JOSEAlgNotAllowed)
    return 'The access token is signed with an algorithm this server does not accept.';
  if (err instanceof jose.errors.JWKSNoMatchingKey)
    return 'The access token is signed with a key the authorization server does not publish (unknown `kid`).';
  if (err instanceof jose.errors.JWSSignatureVerificationFailed) return "The access token's signature does not verify.";
  if (err instanceof jose.errors.JWKSTimeout || (err instanceof jose.errors.JOSEError && e.code === 'ERR_JWKS_INVALID'))
    return "The authorization server's keys could not be read.";
  return 'The access token is not a valid signed JWT.';
}

/** The `jwks_uri` of an issuer, from RFC 8414 metadata, else OpenID Connect discovery. */
async function discoverJwksUri(issuer: string): Promise<string> {
  const u = new URL(issuer);
  const path = u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '');
  const candidates = [
    `${u.origin}/.well-known/oauth-authorization-server${path}`,
    `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
  ];
  const errors: string[] = [];
  for (const at of candidates) {
    try {
      const res = await fetch(at, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(5000),
        redirect: 'error',
      });
      if (!res.ok) {
        errors.push(`${at}: HTTP ${res.status}`);
        continue;
      }
      const meta = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown };
      // RFC 8414 section 3.3: the metadata must name the issuer it was fetched for
      if (meta.issuer !== issuer) throw new Error(`${at} names issuer ${JSON.stringify(meta.issuer)}, not ${issuer}`);
      if (typeof meta.jwks_uri !== 'string') throw new Error(`${at} has no jwks_uri`);
      const jwks = new URL(meta.jwks_uri);
      if (jwks.protocol !== 'https:' && !(jwks.protocol === 'http:' && isLoopback(jwks.hostname)))
        throw new Error(`${at} gives a jwks_uri that is not https: ${meta.jwks_uri}`);
      return meta.jwks_uri;
    } catch (err) {
      errors.push((err as Error).message);
    }
  }
  throw new Error(`no usable metadata: ${errors.join('; ')}`);
}
