// Bundle the holder process's entry (dist/src/runtime/holder/holderMain.js and everything it imports)
// into one CommonJS file: dist/holder/holderMain.cjs. A cold `sbirtools run` waits for the holder to
// start; one file instead of ~200 (zod alone is 106) loads in about half the time. isolated-vm is
// native and stays external (resolved from node_modules as before).
//
// CommonJS, not an ES module, so a loader (holderBoot.cjs, scripts/code-cache-boot.mjs) can compile
// it with a V8 code cache: Node 20 has no code cache for ES modules. The holder starts from the
// loader (src/core/paths.ts), which writes the cache beside the bundle on the first start where the
// folder is writable; a function bundle ships it (src/bundle/shipCodeCaches.ts). One format only: an
// ES module copy beside it was 830 KB more in every install (docs/benchmarks.md "The package").
import { build } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeCacheBoot } from './code-cache-boot.mjs';

// A one-shot `sbirtools run` asks its holder to skip zod's JIT (a new Function per object schema on
// its first parse, ~20 ms for the column specs parsed at import): set before any module of the
// bundle runs. Long-lived hosts (serve, mcp) do not set it and keep the JIT.
const ZOD_JITLESS =
  "if (process.env.SBIRTOOLS_ZOD_JITLESS === '1') globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };";

const common = (root) => ({
  absWorkingDir: root,
  entryPoints: [join(root, 'dist', 'src', 'runtime', 'holder', 'holderMain.js')],
  bundle: true,
  platform: 'node',
  target: 'node20',
  external: ['isolated-vm', 'isolated-vm-legacy'],
  // a smaller file is parsed sooner, and a cold start waits for this parse (docs/benchmarks.md
  // "Serverless for real"); names are kept for stack traces and error classes
  minify: true,
  keepNames: true,
  // no import() left: the loader compiles the bundle through node:vm (scripts/code-cache-boot.mjs)
  supported: { 'dynamic-import': false },
  logLevel: 'warning',
});

/**
 * Bundle the compiled holder entry (run after tsc).
 * @param {string} root the repository root.
 * @returns {Promise<string>} the bundle's path.
 */
export async function buildHolder(root) {
  const outfile = join(root, 'dist', 'holder', 'holderMain.cjs');
  for (const old of ['holderMain.mjs', 'holderMain.mjs.map'])
    rmSync(join(root, 'dist', 'holder', old), { force: true }); // left by an older build
  await build({
    ...common(root),
    outfile,
    format: 'cjs',
    sourcemap: 'linked',
    // import.meta does not exist in CommonJS: the file's own URL stands in for it
    define: { 'import.meta.url': '__sbirtoolsImportMetaUrl' },
    banner: {
      js: `${ZOD_JITLESS}\nvar __sbirtoolsImportMetaUrl = require('node:url').pathToFileURL(__filename).href;`,
    },
  });
  writeFileSync(join(root, 'dist', 'holder', 'holderBoot.cjs'), codeCacheBoot('holderMain.cjs', 'holderCodeCache'));
  return outfile;
}
