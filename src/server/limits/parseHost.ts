/** A `Host` header value as the URL standard reads it. */
export interface ParsedHost {
  /** Lowercase name or address, IPv6 in brackets: `example.com`, `127.0.0.1`, `[::1]`. */
  hostname: string;
  /** With the port when one was given (and not the default 80): `example.com:8787`. */
  host: string;
}

/**
 * Parse a `Host` header strictly: it must be exactly `host[:port]` as the WHATWG URL parser
 * serialises it. Anything else is refused (undefined): userinfo or an `@…` suffix, a path, query or
 * fragment, a trailing dot (`localhost.` resolves like `localhost` but is another name to a
 * DNS-rebinding check), IPv4 shorthands the parser would rewrite (`127.1`), percent-escapes,
 * spaces, an empty name, a bad port.
 * @example parseHost('localhost:8787') // { hostname: 'localhost', host: 'localhost:8787' }
 * @example parseHost('localhost:8787@evil.example') // undefined
 */
export function parseHost(value: string): ParsedHost | undefined {
  const given = value.toLowerCase();
  // the characters of a registered name, an IPv4 or bracketed IPv6 address, and a port; nothing else
  if (!/^(?:\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::\d{1,5})?$/.test(given)) return undefined;
  const name = given.startsWith('[') ? given.slice(0, given.indexOf(']') + 1) : given.split(':')[0]!;
  if (!name || name.endsWith('.') || name.startsWith('.') || name.includes('..')) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${given}/`);
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
  // the parser rewrites what it normalises (127.1 -> 127.0.0.1, :80 dropped): only an unchanged value passes
  const withoutDefaultPort = given.endsWith(':80') ? given.slice(0, -3) : given;
  if (url.host !== withoutDefaultPort) return undefined;
  return { hostname: url.hostname, host: url.host };
}

/**
 * Parse an `Origin` header strictly: `scheme://host[:port]` exactly as the URL standard serialises
 * an origin (no path, no trailing slash, no userinfo); `null` and anything else give undefined.
 * @example parseOrigin('http://localhost:8787') // URL
 */
export function parseOrigin(value: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.origin !== value.toLowerCase() || !parseHost(url.host)) return undefined;
  return url;
}
