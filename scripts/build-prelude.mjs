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
  const text = bindBuiltins(escapeForbiddenInStrings(readFileSync(outfile, 'utf8')));
  writeFileSync(outfile, text);
  const found = FORBIDDEN.filter((s) => text.includes(s));
  if (found.length) throw new Error(`build-prelude: the bundle contains ${found.map((s) => `\`${s}\``).join(', ')}`);
  return { outfile, bytes: Buffer.byteLength(text) };
}

/**
 * The global names the prelude (and Arquero inside it) reads, bound once when the bundle is
 * evaluated, before any user code: a run that assigns `Map = ...`, `Float64Array = ...` or
 * `parseFloat = ...` changes its own globals, not what the prelude calls. Map and WeakMap are
 * bound to subclasses whose frozen prototype holds the methods as loaded (`Map.prototype.get = ...`
 * does not reach the prelude's maps, nor Arquero's); Set is bound to the session's own constructor
 * (a Set subclass made nunique 2x slower: V8 did not inline its `add`). JSON and Reflect are bound to frozen copies of
 * their methods. Left out on purpose: names whose calls V8 inlines when it knows them as the global
 * builtin (Math, Number, String, Array, Object, isNaN, isFinite): bound to a parameter, a
 * call like `Math.floor(x)` is no longer inlined (10x slower in a hot loop, measured). The fast
 * paths capture the few of those they must not lose (prelude/intrinsics.ts). Date is left out too:
 * the deterministic option replaces the global Date and the prelude's clocks follow it. Prototype
 * methods (Array.prototype.map...) are shared objects and are not covered by this: see
 * docs/security.md, "Builtins a run replaces".
 */
export const BOUND_GLOBALS = [
  'WeakSet',
  'ArrayBuffer',
  'DataView',
  'Float64Array',
  'Float32Array',
  'Int8Array',
  'Int16Array',
  'Int32Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Uint16Array',
  'Uint32Array',
  'BigInt64Array',
  'BigUint64Array',
  'RegExp',
  'Promise',
  'Set',
  'Symbol',
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'Boolean',
  'Function',
  'parseFloat',
  'parseInt',
  'decodeURIComponent',
];
const FROZEN_COPIES = ['JSON', 'Reflect'];
/** Bound to subclasses whose frozen prototype holds the methods as loaded (prelude/intrinsics.ts ownMethods). */
const OWN_METHODS = ['Map', 'WeakMap'];

/** `text` (esbuild's `"use strict";(()=>{...})();`) inside a function whose parameters are BOUND_GLOBALS and FROZEN_COPIES. */
function bindBuiltins(text) {
  const strict = '"use strict";';
  const body = text.startsWith(strict) ? text.slice(strict.length) : text;
  const copy =
    '(o)=>{const c=Object.create(null);for(const k of Reflect.ownKeys(o)){const d=Object.getOwnPropertyDescriptor(o,k);' +
    "if('value' in d)c[k]=d.value}return Object.freeze(c)}";
  const own =
    "(B)=>{const O=class extends B{};const p=B.prototype;for(const k of Reflect.ownKeys(p))if(k!=='constructor')" +
    "Object.defineProperty(O.prototype,k,Object.getOwnPropertyDescriptor(p,k));Object.defineProperty(O,'name',{value:B.name});" +
    'Object.freeze(O.prototype);return O}';
  const names = [...BOUND_GLOBALS, ...FROZEN_COPIES, ...OWN_METHODS];
  const args = [
    ...BOUND_GLOBALS.map((n) => `globalThis.${n}`),
    ...FROZEN_COPIES.map((n) => `$c(globalThis.${n})`),
    ...OWN_METHODS.map((n) => `$o(globalThis.${n})`),
  ];
  return `${strict}(($c,$o)=>(function(${names.join(',')}){${body}}).call(this,${args.join(',')}))(${copy},${own});\n`;
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
