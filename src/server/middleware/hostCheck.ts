import type { Middleware } from '../context.js';
import { fail } from '../respond.js';

/**
 * DNS-rebinding protection, first in the chain: the `Host` header's name must be one the server
 * answers to, and a browser's `Origin` must be the server itself or an origin allowed for CORS.
 * `allowedHosts` undefined: any Host (a server on a public interface, where API keys are required).
 */
export function hostCheck(allowedHosts: ReadonlySet<string> | undefined, corsOrigins: ReadonlySet<string>): Middleware {
  return async (ctx, next) => {
    // no Host header: a Request handed to server.fetch() directly; its URL names the host
    const host = ctx.request.headers.get('host') ?? ctx.url.host;
    const name = hostName(host);
    if (allowedHosts && !allowedHosts.has(name)) {
      return fail(421, 'HOST_NOT_ALLOWED', `This server does not answer to the host "${name}".`, {}, 'Use the address the server printed when it started, or add the name to --allowed-hosts.');
    }
    const origin = ctx.request.headers.get('origin');
    if (origin && !corsOrigins.has(origin) && !sameHost(origin, host)) {
      return fail(403, 'ORIGIN_NOT_ALLOWED', `Requests from the web origin ${origin} are not allowed.`, {}, 'The operator can allow it with --cors-origin.');
    }
    return next();
  };
}

/** `example.com:8787` -> `example.com`; `[::1]:8787` -> `[::1]`. */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.split(':')[0]!;
}

function sameHost(origin: string, host: string): boolean {
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}
