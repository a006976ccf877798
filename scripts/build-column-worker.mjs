// Bundle the column decode worker (dist/src/data/formats/lazyParquet/columnWorker.js and everything
// it imports) into one CommonJS file: dist/holder/columnWorker.cjs. A cold run over a Parquet or
// Arrow table waits for two of these workers to start; each loaded ~90 modules (hyparquet,
// flechette, the decoders) one file at a time, ~0.15-0.2 s per worker on the 2-core VM while the
// isolate and the prelude load on the same cores (docs/benchmarks.md "Fourth pass"). One file loads
// in a fraction of that. columnWorkers.ts starts it when it is there, the unbundled module otherwise.
import { build } from 'esbuild';
import { join } from 'node:path';

/**
 * Bundle the compiled column worker (run after tsc).
 * @param {string} root the repository root.
 * @returns {Promise<string>} the bundle's path.
 */
export async function buildColumnWorker(root) {
  const outfile = join(root, 'dist', 'holder', 'columnWorker.cjs');
  await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'dist', 'src', 'data', 'formats', 'lazyParquet', 'columnWorker.js')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    keepNames: true,
    sourcemap: 'linked',
    // import.meta does not exist in CommonJS: the file's own URL stands in for it
    define: { 'import.meta.url': '__sbirtoolsImportMetaUrl' },
    banner: { js: "var __sbirtoolsImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
  });
  return outfile;
}
