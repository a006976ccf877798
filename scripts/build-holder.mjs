// Bundle the holder process's entry (dist/src/runtime/holder/holderMain.js and everything it imports)
// into one ES module: dist/holder/holderMain.mjs. A cold `sbirtools run` waits for the holder to
// start; one file instead of ~200 (zod alone is 106) loads in about half the time. isolated-vm is
// native and stays external (resolved from node_modules as before).
import { build } from 'esbuild';
import { join } from 'node:path';

/**
 * Bundle the compiled holder entry (run after tsc).
 * @param {string} root the repository root.
 * @returns {Promise<string>} the bundle's path.
 */
export async function buildHolder(root) {
  const outfile = join(root, 'dist', 'holder', 'holderMain.mjs');
  await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'dist', 'src', 'runtime', 'holder', 'holderMain.js')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['isolated-vm', 'isolated-vm-legacy'],
    sourcemap: 'linked',
    // a smaller file is parsed sooner, and a cold start waits for this parse (docs/benchmarks.md
    // "Serverless for real"); names are kept for stack traces and error classes
    minify: true,
    keepNames: true,
    // A one-shot `sbirtools run` asks its holder to skip zod's JIT (a new Function per object
    // schema on its first parse, ~20 ms for the column specs parsed at import): set before any
    // module of the bundle runs. Long-lived hosts (serve, mcp) do not set it and keep the JIT.
    banner: {
      js: "if (process.env.SBIRTOOLS_ZOD_JITLESS === '1') globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };",
    },
    logLevel: 'warning',
  });
  return outfile;
}
