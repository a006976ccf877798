// Run a Build Output API Edge Function (`.vc-config.json` `runtime: "edge"`) the way Vercel runs
// one locally (`vercel dev`, @vercel/node's edge handler): the entrypoint bundled by esbuild for the
// browser platform, each `*.wasm?module` import bound to a WebAssembly.Module compiled outside and
// handed in as a global (the platform compiles WASM; the function may not), then evaluated in
// `edge-runtime` (Vercel's Edge Runtime: no Node APIs, no code generation from strings or bytes)
// behind a fetch listener that calls the module's default export with the Request.
// Used by test/e2e/bundle-vercel-edge.test.ts and bench/vercel-edge-cold.mjs.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { EdgeRuntime } from 'edge-runtime';

const NODE_BUILTINS = new Set(builtinModules);

/**
 * Load the Edge Function in `funcDir` (a `.func` folder) with these environment variables.
 * Rejects when its config is not an Edge Function's, or when its code imports a Node module.
 * @param {string} funcDir
 * @param {Record<string, string>} [env]
 * @returns {Promise<{ dispatchFetch(url: string, init?: RequestInit): Promise<Response> }>}
 */
export async function loadVercelEdgeFunction(funcDir, env = {}) {
  const config = JSON.parse(readFileSync(join(funcDir, '.vc-config.json'), 'utf8'));
  if (config.runtime !== 'edge' || !config.entrypoint)
    throw new Error(`${funcDir}/.vc-config.json is not an Edge Function's: ${JSON.stringify(config)}`);
  /** @type {Map<string, string>} */
  const wasm = new Map();
  /** @type {import('esbuild').Plugin} */
  const plugin = {
    name: 'vercel-edge-like',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) =>
        args.path.startsWith('node:') || NODE_BUILTINS.has(args.path.split('/')[0])
          ? {
              errors: [
                {
                  text: `the Edge Function imports ${args.path} (from ${args.importer}); Vercel's Edge Runtime has no Node modules`,
                },
              ],
            }
          : undefined,
      );
      b.onResolve({ filter: /\.wasm\?module$/ }, (args) => {
        const file = join(args.resolveDir, args.path.replace(/\?module$/, ''));
        const name = `wasm_${createHash('sha1').update(readFileSync(file)).digest('hex')}`;
        wasm.set(name, file);
        return { path: name, namespace: 'vercel-wasm' };
      });
      b.onLoad({ filter: /.*/, namespace: 'vercel-wasm' }, (args) => ({
        contents: `export default globalThis[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
  const result = await build({
    entryPoints: [join(funcDir, config.entrypoint)],
    absWorkingDir: dirname(funcDir),
    bundle: true,
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    plugins: [plugin],
  });
  /** @type {Record<string, WebAssembly.Module>} */
  const bindings = {};
  for (const [name, file] of wasm) bindings[name] = await WebAssembly.compile(readFileSync(file));
  const runtime = new EdgeRuntime({
    initialCode: `${result.outputFiles[0].text}
;const userModule = module.exports;
addEventListener('fetch', (event) => {
  const handler = userModule.default;
  if (typeof handler !== 'function') throw new Error('The Edge Function has no default export.');
  event.respondWith(handler(event.request, event));
});`,
    // process: what Vercel gives an Edge Function (env only); module: for esbuild's CommonJS wrapper
    extend: (context) => Object.assign(context, { module: {}, process: { env }, ...bindings }),
  });
  return { dispatchFetch: (url, init) => runtime.dispatchFetch(url, init) };
}
