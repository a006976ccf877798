// The loader written beside the holder process's CommonJS bundle (holderBoot.cjs for holderMain.cjs):
// it compiles the bundle with the V8 code cache beside it, so a fresh holder skips parsing and
// compiling the bundle's ~0.9 MB (~25 ms of a cold answer's CPU, docs/benchmarks.md "Seventh pass").
// Node 20 has no compile cache of its own (module.enableCompileCache is Node >= 22.1). The column
// workers start without one: measured, a cache saved them ~2 ms of their ~20 ms of script.
//
// The cache is used when it passes its checks (magic, SHA-256 of the bundle's source with V8's
// version and the platform, SHA-256 of the payload); V8 checks the rest (its flags) and may still
// reject it, which only costs the compile. When there is none, or V8 rejected it, the loader writes
// one after the bundle's top level ran (so the functions it compiled are in it): a temporary file
// renamed over the old one, and only when the folder is writable. The folder is the bundle's own,
// which whoever can write to it already trusts with the code itself (Python's __pycache__ is the same
// arrangement); a read-only install (a function bundle, a root-owned global install) is left alone and
// compiles as before. `sbirtools bundle` ships the holder's cache made with
// SBIRTOOLS_WRITE_HOLDER_CODE_CACHE=1 (write, then exit). SBIRTOOLS_CODE_CACHE_REPORT=1 prints on
// stderr whether the cache was used and whether one was written (tests, and a deployer who asks).
//
// The bundles hold no import(): code compiled through node:vm cannot import() without a callback,
// and on Node 20 a script compiled from a code cache loses the one it was given (its first start
// worked, every later one failed with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING). The build turns every
// import() into a require() (esbuild's `supported: { 'dynamic-import': false }`).

/**
 * The loader's source for `bundle` (a file name in the same folder).
 * @param {string} bundle 'holderMain.cjs'.
 * @param {string} reportKey the key of the report line, e.g. 'holderCodeCache'.
 * @returns {string}
 */
export function codeCacheBoot(bundle, reportKey) {
  return `'use strict';
// Written by scripts/code-cache-boot.mjs: starts ${bundle} with its V8 code cache (and writes one when there is none).
const { Script } = require('node:vm');
const { createHash } = require('node:crypto');
const { accessSync, constants, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const Module = require('node:module');
const file = join(__dirname, ${JSON.stringify(bundle)});
const cacheFile = file + '.codecache';
const source = readFileSync(file, 'utf8');
// a cache made after the top level ran, and one made later with the holder's own code check compiled too (warm)
const MAGIC = 'SBIRTOOLS-HOLDERCC-1';
const MAGIC_WARM = 'SBIRTOOLS-HOLDERCCW1';
const sha = (d) => createHash('sha256').update(d).digest();
const key = sha(source + '\\0' + process.versions.v8 + '\\0' + process.platform + '-' + process.arch);
const headerOf = (magic) => Buffer.concat([Buffer.from(magic, 'latin1'), key]);
const header = headerOf(MAGIC);
const warmHeader = headerOf(MAGIC_WARM);
const shipOnly = process.env.SBIRTOOLS_WRITE_HOLDER_CODE_CACHE === '1';
let cachedData;
let warmRead = false;
if (!shipOnly) {
  try {
    const f = readFileSync(cacheFile);
    const at = header.length + 32;
    const head = f.subarray(0, header.length);
    if (f.length > at && (head.equals(header) || head.equals(warmHeader)) && sha(f.subarray(at)).equals(f.subarray(header.length, at))) {
      cachedData = f.subarray(at);
      warmRead = head.equals(warmHeader);
    }
  } catch {
    // no cache, or unreadable: compiled from source
  }
}
const script = new Script(Module.wrap(source), { filename: file, cachedData });
const used = cachedData ? (script.cachedDataRejected ? 'rejected' : 'accepted') : 'none';
const mod = new Module(file, module);
mod.filename = file;
mod.paths = Module._nodeModulePaths(__dirname);
script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(file), mod, file, __dirname);
/** The cache as the script's functions are compiled now, under \`head\`; false when the folder cannot take it. */
function writeCache(head) {
  const tmp = cacheFile + '.' + process.pid + '.' + require('node:worker_threads').threadId + '.tmp';
  try {
    accessSync(__dirname, constants.W_OK);
    const data = script.createCachedData();
    writeFileSync(tmp, Buffer.concat([head, sha(data), data]));
    renameSync(tmp, cacheFile);
    return true;
  } catch (err) {
    // a read-only folder (or a full disk): the next start compiles from source, as this one did
    try {
      rmSync(tmp, { force: true });
    } catch {}
    if (shipOnly) throw err;
    return false;
  }
}
// after the top level ran, so the functions it compiled are in the cache too
let written = false;
if (shipOnly || used !== 'accepted') written = writeCache(header);
// for the holder (src/runtime/holder/holderCodeCache.ts): once its code check has run, a cache with
// those functions compiled too, written once, when the one this start read is not such a cache
const warm = { done: warmRead && used === 'accepted' };
globalThis[Symbol.for('sbirtools.holderCodeCache')] = {
  get warm() {
    return warm.done;
  },
  keepWarm() {
    if (warm.done || shipOnly) return false;
    warm.done = true;
    return writeCache(warmHeader);
  },
};
if (process.env.SBIRTOOLS_CODE_CACHE_REPORT === '1')
  process.stderr.write(JSON.stringify({ ${reportKey}: used, written }) + '\\n');
if (shipOnly) process.exit(0);
`;
}
