import { json } from '../respond.js';
import type { Route } from '../routes/route.js';
import { resourceMetadataUrl } from './authenticate.js';
import type { OAuthOptions } from './oauthConfig.js';
import { SCOPES } from './scopes.js';

/**
 * `GET /.well-known/oauth-protected-resource` (and the same with the resource's path appended, RFC
 * 9728): which authorization server issues tokens for this server, the resource URL tokens must
 * name in `aud`, and the scopes. No auth: a client reads it to learn how to get a token.
 */
export function protectedResourceRoutes(oauth: OAuthOptions): Route[] {
  const body = {
    resource: oauth.audience,
    authorization_servers: [oauth.issuer],
    scopes_supported: Object.values(SCOPES),
    bearer_methods_supported: ['header'],
    resource_signing_alg_values_supported: oauth.algorithms,
    resource_name: 'sbirtools',
  };
  const at = new URL(resourceMetadataUrl(oauth.audience)).pathname;
  const paths = [...new Set(['/.well-known/oauth-protected-resource', at])];
  return paths.map((path) => ({
    method: 'GET' as const,
    path,
    auth: false,
    handle: async () => json(body, 200, { 'cache-control': 'public, max-age=300' }),
  }));
}
