import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CodeCacheFile } from './isolated-vm/codeCacheFile.js';
import { pruneCodeCaches } from './isolated-vm/pruneCodeCaches.js';
import { disposeIsolate } from './isolated-vm/disposeIsolate.js';
import type { Ivm } from './isolated-vm/loadIsolatedVm.js';
import { preludeBundlePath } from '../../core/paths.js';

import type IVM from '#ivm-types';

type Isolate = IVM.Isolate;
type Script = IVM.Script;
type CachedData = IVM.ExternalCopy<ArrayBuffer>;

let source: string | undefined;
let cachedData: CachedData | undefined;
let diskCache: CodeCacheFile | undefined;
/** The warm code cache's file in the same folder (keepWarmCodeCache writes it). */
let warmDiskCache: CodeCacheFile | undefined;
/** `cachedData` holds the bytecode the warm-up compiled: made here, or read from a warm file. */
let warmInMemory = false;
/** This process made (or tried to make) its warm code cache: once is enough. */
let warmTried = false;
/** Whether the disk caches were consulted already (once per process: after that the memory copy serves). */
let diskTried = false;
let cacheName: { file: string; key: string } | undefined;

/** The prelude bundle's source, read once per process. */
export function preludeSource(): string {
  source ??= readFileSync(preludeBundlePath(), 'utf8');
  return source;
}

/**
 * The code cache file's name and its checked key: they carry the prelude's hash, the V8 version and
 * the platform, so a file made for another prelude or another V8 is never offered to V8.
 */
export function preludeCodeCacheName(): { file: string; key: string } {
  if (cacheName) return cacheName;
  // the same name grammar as before (pruneCodeCaches.ts matches both kinds)
  const hash = createHash('sha256').update(preludeSource()).digest('hex');
  const v8 = process.versions.v8;
  cacheName = {
    file: `prelude-${hash.slice(0, 16)}-v8-${v8}-${process.arch}.codecache`,
    key: `prelude sha256:${hash} v8:${v8} ${process.platform}-${process.arch}`,
  };
  return cacheName;
}

/**
 * The warm code cache's name and key (keepWarmCodeCache): the plain cache's with `.warm` before the
 * extension and in the key, so neither file is ever read as the other.
 */
export function warmPreludeCodeCacheName(): { file: string; key: string } {
  const { file, key } = preludeCodeCacheName();
  return { file: file.replace(/\.codecache$/, '.warm.codecache'), key: `${key} warm` };
}

/**
 * Keep the prelude's V8 code cache in `cacheDir` too (the data cache's folder), so the first
 * isolate of a new process skips the prelude's compile. The first folder given wins.
 */
export function usePreludeCodeCacheDir(cacheDir: string): void {
  if (diskCache) return;
  const { file, key } = preludeCodeCacheName();
  diskCache = new CodeCacheFile(join(cacheDir, file), key);
  const warm = warmPreludeCodeCacheName();
  warmDiskCache = new CodeCacheFile(join(cacheDir, warm.file), warm.key);
}

/**
 * The code cache shipped beside the prelude bundle (`sbirtools bundle` writes it there): a cold
 * function starts with an empty temp directory, so this is the only cache its first isolate can
 * have. Read only; a file that fails a check, or that V8 rejects, costs the compile it would save.
 */
function shippedCodeCache(warm = false): CodeCacheFile {
  const { file, key } = warm ? warmPreludeCodeCacheName() : preludeCodeCacheName();
  return new CodeCacheFile(join(dirname(preludeBundlePath()), file), key);
}

/**
 * Compile the prelude in `isolate`, consuming V8 code cache made by an earlier isolate of this
 * process (parsing Arquero once per process, not once per isolate) or, for the first isolate of
 * a process, by an earlier process (the file set by usePreludeCodeCacheDir, else the one shipped
 * beside the prelude; V8 rejects bytes that do not match its version, flags or the source, and the
 * file in the cache folder is then rewritten).
 */
export function compilePrelude(ivm: Ivm, isolate: Isolate): Script {
  if (!cachedData && !diskTried) {
    diskTried = true;
    // a warm cache first (the folder's, then one shipped beside the prelude), else a plain one
    const warm = warmDiskCache?.read() ?? shippedCodeCache(true).read();
    const bytes = warm ?? diskCache?.read() ?? shippedCodeCache().read();
    if (bytes) {
      const copy = new Uint8Array(bytes.length);
      copy.set(bytes);
      cachedData = new ivm.ExternalCopy(copy.buffer) as CachedData;
      warmInMemory = warm !== undefined;
    }
  }
  const options = {
    filename: 'sbirtools-prelude.js',
    produceCachedData: true as const,
    ...(cachedData ? { cachedData } : {}),
  };
  const script = isolate.compileScriptSync(preludeSource(), options) as Script & {
    cachedData?: CachedData;
    cachedDataRejected?: boolean;
  };
  if (!cachedData || script.cachedDataRejected) {
    cachedData = script.cachedData;
    // a warm cache V8 refused (other flags) is made again by this process's first warm-up
    warmInMemory = false;
    // made here (none on disk, or V8 refused the file's bytes): store it for the next process
    if (cachedData) saveToDisk(cachedData);
  }
  return script;
}

/**
 * The warm code cache beside the prelude bundle, made from `isolate` after it ran the prelude's
 * warm-up and no run (`sbirtools bundle`, after writeShippedPreludeCodeCache): a cold function's
 * first isolate then starts with the warm-up's functions compiled, and never makes one itself.
 * @returns the file written.
 * @throws when V8 made no cache larger than the plain one (the isolate did not run the warm-up)
 *   or the folder cannot be written.
 * @public used by src/bundle/shipCodeCaches.ts in a child process (knip cannot follow that import)
 */
export function writeShippedWarmPreludeCodeCache(isolate: Isolate): string {
  const script = isolate.compileScriptSync(preludeSource(), {
    filename: 'sbirtools-prelude.js',
    produceCachedData: true,
  }) as Script & { cachedData?: CachedData };
  const plain = shippedCodeCache().read();
  const bytes = script.cachedData ? new Uint8Array(script.cachedData.copy()) : undefined;
  if (!bytes || !plain || bytes.length <= plain.length) throw new Error('V8 made no warm code cache for the prelude');
  const file = shippedCodeCache(true);
  file.write(bytes);
  if (!file.read()) throw new Error(`could not write ${file.path}`);
  return file.path;
}

/**
 * True while this process has no warm code cache (none read, none made here yet): the first
 * isolate to finish the prelude's warm-up, before any run, should make one (keepWarmCodeCache).
 */
export function warmCodeCacheWanted(): boolean {
  return !warmInMemory && !warmTried;
}

/**
 * The warm code cache: the prelude compiled again in `isolate`, which has just run the prelude's
 * warm-up (prelude/runtime/warmUp.ts) and no user code. V8 finds the script in the isolate's
 * compilation cache, so the code cache made now also holds the bytecode of every function the
 * warm-up called (a cache made at compile time holds only the functions compiled eagerly; the rest
 * are compiled on their first call, in every new isolate: about a third of a fresh session's first
 * run). Kept for this process's later isolates and written beside the plain cache for later
 * processes. Bytecode is made from the prelude's source alone: nothing of a table or a run is in
 * it. Once per process; never throws (a cache not made costs only the compiles it would save).
 * @returns true when a warm cache was made.
 */
export function keepWarmCodeCache(isolate: Isolate): boolean {
  if (!warmCodeCacheWanted()) return false;
  warmTried = true;
  try {
    const script = isolate.compileScriptSync(preludeSource(), {
      filename: 'sbirtools-prelude.js',
      produceCachedData: true,
    }) as Script & { cachedData?: CachedData };
    const made = script.cachedData;
    if (!made) return false;
    const bytes = new Uint8Array(made.copy());
    // no larger than the plain cache: the script was compiled anew (not found in the compilation
    // cache), so the warm-up's bytecode is not in it
    if (cachedData && bytes.length <= cachedData.copy().byteLength) return false;
    cachedData = made;
    warmInMemory = true;
    warmDiskCache?.write(bytes);
    return true;
  } catch {
    return false;
  }
}

let saved = false;
/** Write the cache file once per process (when a folder was given). */
function saveToDisk(data: CachedData): void {
  if (saved || !diskCache) return;
  saved = true;
  diskCache.write(new Uint8Array(data.copy()));
  // a new build's cache: the caches of builds long gone go (pruneCodeCaches.ts)
  pruneCodeCaches(diskCache.path);
}

/**
 * Compile the prelude in a fresh isolate and write its code cache beside the prelude bundle, where
 * compilePrelude() finds it when the cache folder has none (`sbirtools bundle` runs this in a
 * process with the holder's flags, from the bundle's own copy of the package).
 * @returns the file written.
 * @throws when the folder cannot be written or V8 makes no cache.
 * @public used by src/bundle/shipPreludeCodeCache.ts in a child process (knip cannot follow that import)
 */
export function writeShippedPreludeCodeCache(ivm: Ivm): string {
  const isolate = new ivm.Isolate({ memoryLimit: 128 });
  try {
    const script = isolate.compileScriptSync(preludeSource(), {
      filename: 'sbirtools-prelude.js',
      produceCachedData: true,
    }) as Script & { cachedData?: CachedData };
    if (!script.cachedData) throw new Error('V8 made no code cache for the prelude');
    const file = shippedCodeCache();
    // written through CodeCacheFile (header, key, checksum), then read back: a silent write failure throws here
    file.write(new Uint8Array(script.cachedData.copy()));
    if (!file.read()) throw new Error(`could not write ${file.path}`);
    return file.path;
  } finally {
    disposeIsolate(isolate);
  }
}
