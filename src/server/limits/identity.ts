/**
 * Who a request is, for budgets and ownership: never the raw credential text. However the
 * credential was spelled (`Bearer` in any case, extra spaces, a cookie, an OAuth token with other
 * claims), one caller maps to one `id`, so REST, MCP and session creation all draw on one budget.
 */
export interface Identity {
  /** `key`: a static API key; `oauth`: an OAuth access token's subject (auth/authenticate.ts: a hash of issuer + `sub`); `local`: a keyless loopback server. */
  readonly kind: 'key' | 'oauth' | 'local';
  /** Stable, opaque, safe to log and to use in store keys (`[a-z0-9:]`, no secret). */
  readonly id: string;
}

/** The identity of a keyless server on loopback: every caller is one. */
export const LOCAL_IDENTITY: Identity = { kind: 'local', id: 'local' };

/**
 * The identity of a static API key, from the key ring's id for it (a hash prefix of the key).
 * @example keyIdentity(ring.identify(token)!) // { kind: 'key', id: '3f9a...' }
 */
export function keyIdentity(keyId: string): Identity {
  return { kind: 'key', id: keyId };
}
