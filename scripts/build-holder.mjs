// Bundle the holder process's entry (dist/src/runtime/holder/holderMain.js and everything it imports)
// into one CommonJS file: dist/holder/holderMain.cjs. A cold `sbirtools run` waits for the holder to
// start; one file instead of ~200 (zod alone is 106) loads in about half the time. isolated-vm is
// native and stays external (resolved from node_modules as before).
//
// CommonJS, not an ES module, so a loader (holderBoot.cjs) can compile it with a V8 code cache:
// Node 20 has no code cache for ES modules. Only a function bundle ships that cache
// (src/bundle/shipCodeCaches.ts); the holder starts from the loader only when the cache is there
// (src/core/paths.ts), from holderMain.cjs itself otherwise. One format only: an ES module copy
// beside it was 830 KB more in every install (docs/benchmarks.md "The package").
import { build } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
  logLevel: 'warning',
});

/**
 * The loader of holderMain.cjs: compiles it with the code cache beside it when that passes its
 * checks (magic, SHA-256 of this source and of V8's version, SHA-256 of the payload; V8 checks the
 * rest and may still reject it, which only costs the compile). Writes the cache instead when
 * SBIRTOOLS_WRITE_HOLDER_CODE_CACHE=1 (`sbirtools bundle`, in a process with the holder's flags).
 * SBIRTOOLS_CODE_CACHE_REPORT=1 prints whether the cache was used (tests, and a deployer who asks).
 */
const BOOT = `'use strict';
// Written by scripts/build-holder.mjs: starts the holder from holderMain.cjs with its V8 code cache.
const { Script } = require('node:vm');
const { createHash } = require('node:crypto');
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const Module = require('node:module');
const file = join(__dirname, 'holderMain.cjs');
const cacheFile = file + '.codecache';
const source = readFileSync(file, 'utf8');
const MAGIC = 'SBIRTOOLS-HOLDERCC-1';
const sha = (d) => createHash('sha256').update(d).digest();
const key = sha(source + '\\0' + process.versions.v8 + '\\0' + process.platform + '-' + process.arch);
const header = Buffer.concat([Buffer.from(MAGIC, 'latin1'), key]);
let cachedData;
if (process.env.SBIRTOOLS_WRITE_HOLDER_CODE_CACHE !== '1') {
  try {
    const f = readFileSync(cacheFile);
    const at = header.length + 32;
    if (f.length > at && f.subarray(0, header.length).equals(header) && sha(f.subarray(at)).equals(f.subarray(header.length, at)))
      cachedData = f.subarray(at);
  } catch {
    // no cache, or unreadable: compiled from source
  }
}
const script = new Script(Module.wrap(source), { filename: file, cachedData });
if (process.env.SBIRTOOLS_CODE_CACHE_REPORT === '1')
  process.stderr.write(JSON.stringify({ holderCodeCache: cachedData ? (script.cachedDataRejected ? 'rejected' : 'accepted') : 'none' }) + '\\n');
const mod = new Module(file, module);
mod.filename = file;
mod.paths = Module._nodeModulePaths(__dirname);
script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(file), mod, file, __dirname);
if (process.env.SBIRTOOLS_WRITE_HOLDER_CODE_CACHE === '1') {
  // after the top level ran, so the functions it compiled are in the cache too
  const data = script.createCachedData();
  writeFileSync(cacheFile, Buffer.concat([header, sha(data), data]));
  process.exit(0);
}
`;

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
  writeFileSync(join(root, 'dist', 'holder', 'holderBoot.cjs'), BOOT);
  return outfile;
}
