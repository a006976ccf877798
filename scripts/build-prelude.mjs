// Bundle the in-isolate prelude (prelude/index.ts + Arquero + polyfills) into one classic script:
// dist/prelude/bundle.js. The isolate has no module loader, no Node and no DOM, so the bundle must
// not contain `require(`, `process.` or `import(` (test/unit/prelude/bundle.test.ts checks).
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'acorn';
import { simple } from 'acorn-walk';
import { join } from 'node:path';

/** Arquero modules that reach for Node or the network, replaced by sandbox stubs. */
const SHIMS = [
  { filter: /[\\/]arquero[\\/]src[\\/]format[\\/]stream[\\/]byte-stream\.js$/, stub: 'shims/byteStream.ts' },
];

/** Strings that must never appear in the bundle (see the bundle test). */
export const FORBIDDEN = ['require(', 'process.', 'import('];

/**
 * Bundle `prelude/index.ts` to `dist/prelude/bundle.js`.
 * @param {string} root the repository root.
 * @returns {Promise<{ outfile: string, bytes: number }>}
 * @throws when esbuild fails or the bundle contains a forbidden string.
 */
export async function buildPrelude(root) {
  const outfile = join(root, 'dist', 'prelude', 'bundle.js');
  mkdirSync(join(root, 'dist', 'prelude'), { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'prelude', 'index.ts')],
    outfile,
    bundle: true,
    format: 'iife',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    minify: true,
    keepNames: true, // readable names in print(fn), stacks and hints
    legalComments: 'none',
    tsconfig: join(root, 'prelude', 'tsconfig.json'),
    logLevel: 'warning',
    plugins: [
      {
        name: 'sandbox-shims',
        setup(b) {
          // hyparquet's and hyparquet-writer's default export condition is their Node entry (imports fs): should the
          // prelude import them by name, only their platform-neutral modules (to_parquet has its own writer,
          // files/parquet/, and takes only hyparquet-writer/src/snappy.js by path)
          b.onResolve({ filter: /^hyparquet(-writer)?$/ }, (args) => ({
            path: join(root, 'node_modules', args.path, 'src', 'index.js'),
          }));
          for (const { filter, stub } of SHIMS) {
            b.onResolve({ filter: /byte-stream\.js$/ }, (args) => {
              const full = join(args.resolveDir, args.path);
              return filter.test(full) ? { path: join(root, 'prelude', stub) } : undefined;
            });
          }
        },
      },
    ],
  });
  const text = escapeForbiddenInStrings(readFileSync(outfile, 'utf8'));
  writeFileSync(outfile, text);
  const found = FORBIDDEN.filter((s) => text.includes(s));
  if (found.length) throw new Error(`build-prelude: the bundle contains ${found.map((s) => `\`${s}\``).join(', ')}`);
  return { outfile, bytes: Buffer.byteLength(text) };
}

/**
 * Library error messages (acorn: "Trailing comma is not allowed in import()") contain forbidden
 * strings inside string literals. Rewrite only those literals, with `(` escaped as `\\x28`: the
 * runtime string is unchanged, while a real `require(`/`import(` call in code still fails the check.
 */
function escapeForbiddenInStrings(text) {
  const edits = [];
  const hit = (s) => FORBIDDEN.some((f) => s.includes(f));
  simple(parse(text, { ecmaVersion: 'latest' }), {
    Literal(node) {
      if (typeof node.value === 'string' && hit(text.slice(node.start, node.end))) edits.push(node);
    },
    TemplateElement(node) {
      if (hit(text.slice(node.start, node.end))) edits.push(node);
    },
  });
  let out = text;
  for (const node of edits.sort((a, b) => b.start - a.start)) {
    const raw = out
      .slice(node.start, node.end)
      .replace(/(require|import|process)(\(|\.)/g, (_, w, p) => w + (p === '(' ? '\\x28' : '\\x2e'));
    out = out.slice(0, node.start) + raw + out.slice(node.end);
  }
  return out;
}
