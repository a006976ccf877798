import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodeCacheFile } from './isolated-vm/codeCacheFile.js';
import type { Ivm } from './isolated-vm/loadIsolatedVm.js';
import { preludeBundlePath } from '../../core/paths.js';

import type IVM from '#ivm-types';

type Isolate = IVM.Isolate;
type Script = IVM.Script;
type CachedData = IVM.ExternalCopy<ArrayBuffer>;

let source: string | undefined;
let cachedData: CachedData | undefined;
let diskCache: CodeCacheFile | undefined;
/** Whether the disk cache was consulted already (once per process: after that the memory copy serves). */
let diskTried = false;

/** The prelude bundle's source, read once per process. */
export function preludeSource(): string {
  source ??= readFileSync(preludeBundlePath(), 'utf8');
  return source;
}

/**
 * Keep the prelude's V8 code cache in `cacheDir` too (the data cache's folder), so the first
 * isolate of a new process skips the prelude's compile. The file name and its checked key carry
 * the prelude's hash, the V8 version and the platform; the first folder given wins.
 */
export function usePreludeCodeCacheDir(cacheDir: string): void {
  if (diskCache) return;
  const hash = createHash('sha256').update(preludeSource()).digest('hex');
  const v8 = process.versions.v8;
  diskCache = new CodeCacheFile(
    join(cacheDir, `prelude-${hash.slice(0, 16)}-v8-${v8}-${process.arch}.codecache`),
    `prelude sha256:${hash} v8:${v8} ${process.platform}-${process.arch}`,
  );
}

/**
 * Compile the prelude in `isolate`, consuming V8 code cache made by an earlier isolate of this
 * process (parsing Arquero once per process, not once per isolate) or, for the first isolate of
 * a process, by an earlier process (the file set by usePreludeCodeCacheDir; V8 rejects bytes that
 * do not match its version, flags or the source, and the file is then rewritten).
 */
export function compilePrelude(ivm: Ivm, isolate: Isolate): Script {
  if (!cachedData && diskCache && !diskTried) {
    diskTried = true;
    const bytes = diskCache.read();
    if (bytes) {
      const copy = new Uint8Array(bytes.length);
      copy.set(bytes);
      cachedData = new ivm.ExternalCopy(copy.buffer) as CachedData;
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
    // made here (none on disk, or V8 refused the file's bytes): store it for the next process
    if (cachedData) saveToDisk(cachedData);
  }
  return script;
}

let saved = false;
/** Write the cache file once per process (when a folder was given). */
function saveToDisk(data: CachedData): void {
  if (saved || !diskCache) return;
  saved = true;
  diskCache.write(new Uint8Array(data.copy()));
}
