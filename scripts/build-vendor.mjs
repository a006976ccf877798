// Bundle each src/vendor/<name>.ts (a list of re-exports from third-party packages) into
// dist/src/vendor/<name>.js, replacing tsc's output of the same file. The packages named there are
// then devDependencies: a consumer's install does not carry them (docs/benchmarks.md "The
// package": 24 MB of vega/d3 become 0.8 MB). Their licence texts stay in the bundle (legal
// comments at the end of each file).
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Packages a vendored bundle leaves to the consumer: optional native helpers, and zod (a dependency). */
const EXTERNAL = ['canvas', 'zod', 'zod/*'];

/**
 * Bundle every vendored module (run after tsc, before the holder and CLI bundles).
 * @param {string} root the repository root.
 * @returns {Promise<string[]>} the bundles written.
 */
export async function buildVendor(root) {
  const dir = join(root, 'src', 'vendor');
  const names = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  const written = [];
  for (const file of names) {
    const outfile = join(root, 'dist', 'src', 'vendor', file.replace(/\.ts$/, '.js'));
    await build({
      absWorkingDir: root,
      entryPoints: [join(dir, file)],
      outfile,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: EXTERNAL,
      minify: true,
      legalComments: 'eof',
      // CommonJS inside an ES module bundle needs a require of its own
      banner: {
        js: "import { createRequire as __sbirtoolsRequire } from 'node:module'; const require = __sbirtoolsRequire(import.meta.url);",
      },
      logLevel: 'warning',
    });
    written.push(outfile);
  }
  return written;
}
