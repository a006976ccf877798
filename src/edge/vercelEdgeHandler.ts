import { edgeHandler, type EdgeEnv } from './edgeHandler.js';

/** What `sbirtools bundle --target vercel-edge` hands to vercelEdgeHandler(). */
export interface VercelEdgeOptions {
  /** QuickJS compiled by the platform: `import wasmModule from './quickjs.wasm?module'`. */
  wasmModule: unknown;
  quickjsVersion: string;
  /** The embedded data folder (packFolder(); the synthetic sample) as base64: an Edge Function imports no binary module but WASM. */
  embeddedData?: string;
  /**
   * The function's environment variables, read by the entry as literal `process.env.NAME`
   * expressions: Vercel passes an Edge Function only the variables its code names that way (and
   * those listed in `.vc-config.json` `envVarsInUse`).
   */
  env: () => Pick<EdgeEnv, 'SBIRTOOLS_DATA_URL' | 'SBIRTOOLS_PRESET'>;
}

/**
 * A Vercel Edge Function (`export default vercelEdgeHandler(...)`, Build Output API `runtime: "edge"`)
 * over the edge core: a Web `Request` -> `Response`, settings from the function's environment
 * variables. Routes, limits and data: edgeHandler().
 * @example export default vercelEdgeHandler({ wasmModule, quickjsVersion, env: () => ({ SBIRTOOLS_DATA_URL: process.env.SBIRTOOLS_DATA_URL }) });
 */
export function vercelEdgeHandler(options: VercelEdgeOptions): (request: Request) => Promise<Response> {
  const handle = edgeHandler(
    {
      wasmModule: options.wasmModule,
      quickjsVersion: options.quickjsVersion,
      embeddedData: options.embeddedData === undefined ? undefined : fromBase64(options.embeddedData),
    },
    {
      noData:
        'set the environment variable SBIRTOOLS_DATA_URL (vercel env add SBIRTOOLS_DATA_URL) to the https:// URL of a folder written by `sbirtools build-data`, then deploy again.',
      logs: 'vercel logs <deployment url>',
      // the function's own path, and those config.json rewrites to it (a rewrite may keep the path called)
      runPaths: ['/api/run', '/', '/v1/run'],
    },
  );
  return (request) => handle(request, options.env());
}

function fromBase64(text: string): ArrayBuffer {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}
