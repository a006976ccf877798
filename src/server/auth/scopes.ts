/** The scopes an access token needs, by what the request does. */
export const SCOPES = {
  /** Run code: `POST /v1/run`, and MCP at `/mcp` (its tools run code). */
  run: 'sbirtools:run',
  /** Create, list and close sessions: `/v1/sessions`. */
  sessions: 'sbirtools:sessions',
  /** Read `/metrics`. */
  metrics: 'sbirtools:metrics',
} as const;

/**
 * The scope a route needs from an OAuth token; undefined for routes that take no token (health
 * checks, the protected-resource metadata) or only an API key (the viewer at /ui).
 * @example scopeFor('/v1/sessions/:id') // 'sbirtools:sessions'
 */
export function scopeFor(path: string): string | undefined {
  if (path === '/v1/run' || path === '/mcp') return SCOPES.run;
  if (path.startsWith('/v1/sessions')) return SCOPES.sessions;
  if (path === '/metrics') return SCOPES.metrics;
  return undefined;
}
