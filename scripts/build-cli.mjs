// Bundle the CLI's entry (dist/src/cli/main.js) and the holder pre-warm bin/sbirtools.js starts
// first (dist/src/runtime/holder/defaultHolder.js) into dist/cli/: one build with shared chunks, so both
// entries share one module instance (one holder pool), and each command's lazy import() stays a
// separate chunk. A cold `sbirtools run` loads a handful of files instead of ~250 (zod alone is
// 106 modules). Only zod is bundled from node_modules: every other package stays external and
// loads as before (several are CommonJS that require() builtins, which an ES module bundle cannot
// do), and bin/sbirtools.js uses this bundle for `run` only.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

/** Bare package imports (not relative, not node:) that are not zod stay external. */
const externalPackages = {
  name: 'external-packages-but-zod',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path === 'zod' || args.path.startsWith('zod/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * Bundle the compiled CLI (run after tsc).
 * @param {string} root the repository root.
 * @returns {Promise<string>} the folder holding main.js and defaultHolder.js.
 */
export async function buildCli(root) {
  const outdir = join(root, 'dist', 'cli');
  rmSync(outdir, { recursive: true, force: true }); // chunk names carry hashes: drop stale ones
  await build({
    absWorkingDir: root,
    entryPoints: {
      main: join(root, 'dist', 'src', 'cli', 'main.js'),
      defaultHolder: join(root, 'dist', 'src', 'runtime', 'holder', 'defaultHolder.js'),
    },
    outdir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [externalPackages],
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return outdir;
}
