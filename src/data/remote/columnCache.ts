import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local cache of one remote data folder: `<cacheDir>/remote/<hash of the folder URL>/`, holding
 * the manifest as fetched, its HTTP validators, and each verified column file as `<sha256>.col`.
 * A file is named by the hash it was checked against, so a rebuilt folder never reuses a stale one.
 * @example const c = remoteCacheDir('/tmp/sbirtools', 'https://cdn/sbir/'); columnCachePath(c, sha)
 */
export function remoteCacheDir(cacheDir: string, folderUrl: string): string {
  return join(cacheDir, 'remote', createHash('sha256').update(folderUrl).digest('hex').slice(0, 32));
}

/** Where a column file with this content hash is cached. */
export function columnCachePath(dir: string, sha256: string): string {
  return join(dir, `${sha256}.col`);
}

/**
 * The cached file's bytes when it exists with the expected size, else undefined (missing, or a
 * file of another size, which is removed).
 */
export function readCached(path: string, bytes: number): Uint8Array | undefined {
  try {
    if (statSync(path).size !== bytes) {
      rmSync(path, { force: true });
      return undefined;
    }
    const b = readFileSync(path);
    return b.byteLength === bytes ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes `bytes` to `path` atomically: a temp file beside it, renamed over it when complete, so a
 * concurrent reader sees the whole file or none. Best effort: false when the folder is not
 * writable (the caller keeps the bytes in memory).
 */
export function writeCachedSync(path: string, bytes: Uint8Array): boolean {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(tmp, bytes, { flag: 'wx' });
    renameSync(tmp, path);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}
