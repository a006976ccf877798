// Bundle what a function bundle's entry loads (`sbirtools bundle --target lambda|vercel`, see
// src/bundle/targets.ts) into dist/fn/: the adapters and the holder pre-warm, one build with shared
// chunks so they share one module instance (one holder pool). A cold function imports a handful of
// files instead of ~300 (docs/benchmarks.md "Serverless for real"); each lazy import() stays its own
// chunk. Unlike the CLI bundle (scripts/build-cli.mjs), the JavaScript packages are bundled too.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Packages that stay external: the native engines, the QuickJS WASM file (found by path from its
 * package) and optional native helpers. Everything else is JavaScript and is bundled: a package
 * loaded from node_modules costs a module per file, and a CommonJS one a lexer pass as well.
 */
const EXTERNAL = /^(isolated-vm|@jitl\/quickjs-wasmfile|canvas)/;
const externalNatives = {
  name: 'external-natives',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      EXTERNAL.test(args.path) ? { path: args.path, external: true } : undefined,
    );
  },
};

/**
 * Bundle the compiled function entries (run after tsc).
 * @param {string} root the repository root.
 * @returns {Promise<string>} the folder holding the entries.
 */
export async function buildFn(root) {
  const outdir = join(root, 'dist', 'fn');
  rmSync(outdir, { recursive: true, force: true }); // chunk names carry hashes: drop stale ones
  const dist = join(root, 'dist', 'src');
  await build({
    absWorkingDir: root,
    entryPoints: {
      prewarm: join(dist, 'sandbox', 'prewarm.js'),
      lambdaHandler: join(dist, 'adapters', 'lambdaHandler.js'),
      handler: join(dist, 'adapters', 'handler.js'),
      nodeListener: join(dist, 'adapters', 'nodeListener.js'),
    },
    outdir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [externalNatives],
    // CommonJS inside an ES module bundle needs a require of its own
    banner: {
      js: "import { createRequire as __sbirtoolsRequire } from 'node:module'; const require = __sbirtoolsRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    // a smaller file is parsed sooner, and a cold start waits for this parse (docs/benchmarks.md
    // "Serverless for real"); names are kept for stack traces and error classes
    minify: true,
    keepNames: true,
    logLevel: 'warning',
  });
  return outdir;
}
