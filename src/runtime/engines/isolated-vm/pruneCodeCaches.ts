import { readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A prelude code cache's name (preludeScript.ts `preludeCodeCacheName`): nothing else is touched. */
const CACHE_NAME = /^prelude-[0-9a-f]{16}-v8-[0-9A-Za-z._-]+\.codecache$/;
/** A write's temporary file (CodeCacheFile.write: `<name>.<pid>.<ms>.tmp`). */
const TEMP_NAME = /^prelude-[0-9a-f]{16}-v8-[0-9A-Za-z._-]+\.codecache\.\d+\.\d+\.tmp$/;

/** How many prelude code caches a folder keeps: this build's and the newest others'. */
export const KEEP_CODE_CACHES = 4;
/** A cache or temporary file younger than this is never removed (another process may be writing or using it). */
const GRACE_MS = 10 * 60_000;

/**
 * Remove the prelude code caches of other builds from `kept`'s folder, beyond the newest
 * `KEEP_CODE_CACHES` (counting `kept`), and temporary files a killed writer left behind. Every
 * upgrade or rebuild of sbirtools writes a new ~0.4 MB cache named after its prelude's hash and the
 * V8 version, and before this none was ever removed (98 files in one long-used cache folder). Only
 * files named as this code names them go; a file younger than ten minutes stays, and nothing here
 * throws: a file that cannot be listed or removed only keeps its space.
 * @returns the names removed.
 * @example pruneCodeCaches('/cache/prelude-0123456789abcdef-v8-11.3.244.8-node.38-x64.codecache')
 */
export function pruneCodeCaches(kept: string, now = Date.now()): string[] {
  const dir = dirname(kept);
  const keptName = basename(kept);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const caches: Array<{ name: string; mtime: number }> = [];
  const stale: string[] = [];
  for (const name of names) {
    if (name === keptName) continue;
    const isCache = CACHE_NAME.test(name);
    if (!isCache && !TEMP_NAME.test(name)) continue;
    const mtime = mtimeOf(join(dir, name));
    if (mtime === undefined) continue;
    if (isCache) caches.push({ name, mtime });
    else if (now - mtime > GRACE_MS) stale.push(name);
  }
  caches.sort((a, b) => b.mtime - a.mtime);
  const old = caches
    .slice(KEEP_CODE_CACHES - 1)
    .filter((c) => now - c.mtime > GRACE_MS)
    .map((c) => c.name);
  const removed: string[] = [];
  for (const name of [...old, ...stale]) {
    try {
      rmSync(join(dir, name), { force: true });
      removed.push(name);
    } catch {
      // kept: the next write tries again
    }
  }
  return removed;
}

function mtimeOf(path: string): number | undefined {
  try {
    const st = statSync(path);
    return st.isFile() ? st.mtimeMs : undefined;
  } catch {
    return undefined;
  }
}
