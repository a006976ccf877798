import type * as Http from 'node:http';
import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);
let loaded: { http: typeof Http; https: typeof Http } | undefined;

/**
 * node:http or node:https for a URL's protocol, loaded on the first request, not when sbirtools
 * loads: the holder process imports the download and remote-data code with everything else, and
 * the two modules (with tls and the HTTP parser) are ~12 ms of CPU at its start, which a session
 * over local files or the cached dataset never uses (docs/benchmarks.md "Seventh pass").
 * @example nodeHttp('https:').get(url, options);
 */
export function nodeHttp(protocol: string): Pick<typeof Http, 'get' | 'request'> {
  loaded ??= { http: requireHere('node:http') as typeof Http, https: requireHere('node:https') as typeof Http };
  return protocol === 'https:' ? loaded.https : loaded.http;
}
