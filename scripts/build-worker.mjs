// Bundle the edge core and its two platform wrappers (dist/src/edge/createWorker.js for Cloudflare
// Workers, vercelEdgeHandler.js for Vercel Edge, and what they import) into one ES module with no
// `node:` import: dist/workers/sbirtools-edge.mjs, plus the QuickJS .wasm beside it. Neither
// platform compiles WASM from bytes at run time, so `sbirtools bundle --target workers|vercel-edge`
// imports the .wasm file as a module in the entry it writes. Any Node built-in that
// reaches this graph fails the build, naming the importer: the edge path stays node-free.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * @param {string} root the repository root (after tsc and the prelude bundle).
 * @returns {Promise<string>} the bundle's path.
 */
export async function buildWorker(root) {
  const outDir = join(root, 'dist', 'workers');
  mkdirSync(outDir, { recursive: true });
  const require = createRequire(join(root, 'package.json'));
  copyFileSync(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm'), join(outDir, 'quickjs.wasm'));
  const quickjsVersion = JSON.parse(
    readFileSync(join(dirname(require.resolve('quickjs-emscripten-core')), '..', 'package.json'), 'utf8'),
  ).version;
  const prelude = readFileSync(join(root, 'dist', 'prelude', 'bundle.js'), 'utf8');
  const builtins = new Set(builtinModules);
  const outfile = join(outDir, 'sbirtools-edge.mjs');
  await build({
    absWorkingDir: root,
    stdin: {
      contents: [
        "export { createWorker } from './dist/src/edge/createWorker.js';",
        "export { vercelEdgeHandler } from './dist/src/edge/vercelEdgeHandler.js';",
      ].join('\n'),
      resolveDir: root,
      sourcefile: 'sbirtools-edge-entry.js',
    },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'browser', 'import'],
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    define: { SBIRTOOLS_QUICKJS_VERSION: JSON.stringify(quickjsVersion) },
    // zod compiles parsers with new Function, which Workers forbid: use its interpreter from the start
    banner: { js: 'globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };' },
    footer: { js: `export const quickjsVersion = ${JSON.stringify(quickjsVersion)};` },
    plugins: [
      {
        name: 'edge-only',
        setup(b) {
          // the prelude's source comes in as a string, not read from disk (preludeScript.ts reads it with node:fs)
          b.onResolve({ filter: /\/preludeScript\.js$/ }, () => ({ path: 'prelude-source', namespace: 'edge' }));
          b.onLoad({ filter: /^prelude-source$/, namespace: 'edge' }, () => ({
            contents: `const source = ${JSON.stringify(prelude)}; export function preludeSource() { return source; }`,
            loader: 'js',
          }));
          b.onResolve({ filter: /.*/ }, (args) => {
            const bare = args.path.replace(/^node:/, '').split('/')[0];
            if (
              args.path.startsWith('node:') ||
              builtins.has(args.path) ||
              (builtins.has(bare) && !args.path.startsWith('.'))
            ) {
              return {
                errors: [
                  {
                    text: `the edge worker must not import ${args.path} (imported by ${args.importer}); keep that module off the QuickJS path`,
                  },
                ],
              };
            }
            return undefined;
          });
        },
      },
    ],
    logLevel: 'warning',
  });
  return outfile;
}
