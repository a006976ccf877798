import type { Middleware } from '../context.js';
import { parseHost, parseOrigin } from '../limits/parseHost.js';
import { fail } from '../respond.js';

/**
 * DNS-rebinding protection, first in the chain (before authentication and before any body is
 * read): the `Host` header must parse strictly as `host[:port]` (see parseHost: an `@…` suffix,
 * userinfo, a path or a trailing dot are refused, 400) and name a host the server answers to
 * (421); a browser's `Origin` must parse strictly too and be the server itself or an origin
 * allowed for CORS (403). `allowedHosts` undefined: any well-formed Host (a server on a public
 * interface, where API keys are required).
 */
export function hostCheck(allowedHosts: ReadonlySet<string> | undefined, corsOrigins: ReadonlySet<string>): Middleware {
  return async (ctx, next) => {
    // no Host header: a Request handed to server.fetch() directly; its URL names the host
    const raw = ctx.request.headers.get('host') ?? ctx.url.host;
    const host = parseHost(raw);
    if (!host) {
      return fail(
        400,
        'BAD_HOST',
        `The Host header ${JSON.stringify(raw.slice(0, 200))} is not a plain host[:port].`,
        { connection: 'close' },
        'Send the host and port only, as in the server\'s URL: no user info, path, "@" or trailing dot.',
      );
    }
    if (allowedHosts && !allowedHosts.has(host.hostname)) {
      return fail(
        421,
        'HOST_NOT_ALLOWED',
        `This server does not answer to the host "${host.hostname}".`,
        {},
        'Use the address the server printed when it started, or add the name to --allowed-hosts.',
      );
    }
    const origin = ctx.request.headers.get('origin');
    if (origin !== null && !corsOrigins.has(origin)) {
      const parsed = parseOrigin(origin);
      if (!parsed || parsed.host !== host.host) {
        return fail(
          403,
          'ORIGIN_NOT_ALLOWED',
          `Requests from the web origin ${JSON.stringify(origin.slice(0, 200))} are not allowed.`,
          {},
          'The operator can allow it with --cors-origin.',
        );
      }
    }
    return next();
  };
}
