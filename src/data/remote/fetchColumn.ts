import { createHash } from 'node:crypto';
import { writeCachedSync } from './columnCache.js';
import { fetchBytes } from './fetchBytes.js';
import { fetchFailed } from './fetchFailed.js';
import type { RemoteOptions } from './remoteOptions.js';

/**
 * Fetches one column file, checks its size and SHA-256 against the manifest, and caches it
 * atomically at `dest` (null: memory only). Used by the fetch thread (fetchWorker.ts) and by the
 * prefetch of the columns a run names (openRemoteDataset.ts).
 * @throws {DataError} DATA_FETCH_FAILED naming host, path and status; nothing is cached then.
 * @example const { bytes } = await fetchColumn(url, entry.bytes, entry.sha256, cachePath, opts);
 */
export async function fetchColumn(
  url: URL,
  size: number,
  sha256: string,
  dest: string | null,
  opts: Required<RemoteOptions>,
): Promise<{ bytes: Uint8Array; requests: number; cached: boolean }> {
  if (size > opts.maxColumnBytes)
    throw fetchFailed(
      url,
      `the manifest gives this column file ${size} bytes, over the cap of ${opts.maxColumnBytes} (remoteData.maxColumnBytes)`,
    );
  const { bytes, requests } = await fetchBytes(url, opts, { maxBytes: opts.maxColumnBytes, expectedBytes: size });
  if (bytes.byteLength !== size)
    throw fetchFailed(url, `the column file has ${bytes.byteLength} bytes, the manifest says ${size}`);
  const sha = createHash('sha256').update(bytes).digest('hex');
  // checked before it is cached or used: a file whose hash differs is never written
  if (sha !== sha256)
    throw fetchFailed(
      url,
      `the column file's hash ${sha.slice(0, 12)}… differs from the manifest's ${sha256.slice(0, 12)}…`,
    );
  const cached = dest !== null && writeCachedSync(dest, bytes);
  return { bytes, requests, cached };
}
