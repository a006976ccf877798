import { SbirtoolsValidationError } from '../../core/errors.js';
import { isLoopback } from '../options.js';
import type { OAuthOptions } from './oauthOptions.js';

export type { OAuthOptions } from './oauthOptions.js';

/** Asymmetric algorithms only: a symmetric (HS*) key would have to be shared with this server, and `none` is no signature. */
export const DEFAULT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

/**
 * The OAuth settings from options, else `SBIRTOOLS_OAUTH_ISSUER` / `SBIRTOOLS_OAUTH_AUDIENCE`;
 * undefined when neither is set.
 * @throws {SbirtoolsValidationError} when only one is set, a URL is malformed, an `http://` issuer
 * is not on loopback, or an algorithm is symmetric or `none`.
 * @example oauthConfig({ issuer: 'https://idp.example.com', audience: 'https://sbir.example.com/mcp' }, process.env)
 */
export function oauthConfig(
  option: Partial<OAuthOptions> | undefined,
  env: NodeJS.ProcessEnv,
): OAuthOptions | undefined {
  const issuer = option?.issuer ?? env.SBIRTOOLS_OAUTH_ISSUER;
  const audience = option?.audience ?? env.SBIRTOOLS_OAUTH_AUDIENCE;
  if (!issuer && !audience) return undefined;
  if (!issuer || !audience) {
    throw new SbirtoolsValidationError(
      `OAuth needs both an issuer and an audience (--oauth-issuer/SBIRTOOLS_OAUTH_ISSUER and --oauth-audience/SBIRTOOLS_OAUTH_AUDIENCE); got only the ${issuer ? 'issuer' : 'audience'}.`,
    );
  }
  const iss = url('issuer', issuer);
  if (iss.protocol !== 'https:' && !(iss.protocol === 'http:' && isLoopback(iss.hostname))) {
    throw new SbirtoolsValidationError(
      `The OAuth issuer must be an https:// URL (http:// only on loopback, for tests), got \`${issuer}\`.`,
    );
  }
  url('audience', audience);
  const algorithms = option?.algorithms ?? DEFAULT_ALGORITHMS;
  const bad = algorithms.find((a) => !DEFAULT_ALGORITHMS.includes(a));
  if (bad !== undefined)
    throw new SbirtoolsValidationError(
      `OAuth algorithm \`${bad}\` is not allowed: use asymmetric ones (${DEFAULT_ALGORITHMS.join(', ')}).`,
    );
  return { ...option, issuer, audience, algorithms };
}

function url(name: string, value: string): URL {
  try {
    const u = new URL(value);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('not http(s)');
    return u;
  } catch {
    throw new SbirtoolsValidationError(`Expected the OAuth ${name} to be an http(s) URL, got \`${value}\`.`);
  }
}
