import { edgeHandler, type EdgeEnv, type EdgeOptions } from './edgeHandler.js';

/**
 * A Cloudflare Workers module (`export default createWorker(...)`) over the edge core: the
 * worker's `fetch(request, env)` with `env` its `[vars]` and bindings (SBIRTOOLS_DATA_URL, an R2
 * bucket SBIRTOOLS_DATA). Routes, limits and data: edgeHandler().
 * @example export default createWorker({ wasmModule, quickjsVersion: '0.32.0' });
 */
export function createWorker(options: EdgeOptions): { fetch(request: Request, env?: EdgeEnv): Promise<Response> } {
  const handle = edgeHandler(options, {
    noData:
      'set SBIRTOOLS_DATA_URL (wrangler.toml [vars]) to the URL of a folder written by `sbirtools build-data`, or bind an R2 bucket holding it as SBIRTOOLS_DATA.',
    logs: 'wrangler tail',
    runPaths: ['/', '/v1/run'],
  });
  return { fetch: (request, env) => handle(request, env) };
}
