import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DataError } from '../errors.js';
import type { Dataset } from '../dataset.js';
import { parseManifest, type PackManifest } from '../pack/manifest.js';
import { packDataset } from '../pack/readPack.js';
import { columnCachePath, readCached, remoteCacheDir, writeCachedSync } from './columnCache.js';
import { fetchBytes } from './fetchBytes.js';
import { fetchColumn } from './fetchColumn.js';
import { fetchFailed } from './fetchFailed.js';
import { MAX_MANIFEST_BYTES, remoteOptions, type RemoteOptions } from './remoteOptions.js';
import { dataFolderUrl } from './remoteUrl.js';
import { fetchColumnSync, prepareFetchThread } from './syncFetch.js';

/** Largest column file fetched ahead by prefetch() (the categorical and numeric columns are far smaller). */
const PREFETCH_MAX_BYTES = 16 * 1024 * 1024;

/** The HTTP validators and freshness of a cached manifest. */
interface ManifestMeta {
  url: string;
  fetchedAt: number;
  maxAgeS?: number;
  etag?: string;
  lastModified?: string;
}

/** What {@link openRemoteDataset} did, for tests and benchmarks. */
export interface RemoteStats {
  /** HTTP requests made so far (manifest and columns, redirects and retries included). */
  requests: number;
  /** Column-file bytes fetched so far. */
  bytesFetched: number;
}

/**
 * Opens a built data folder on a static host (docs/dataset.md "Remote data"): the manifest is
 * fetched (or taken from the cache while the server's `Cache-Control: max-age` holds, or after a
 * 304), and each column file is fetched on its first `loadColumn`, checked against the manifest's
 * size and SHA-256, cached atomically under `<cacheDir>/remote/`, and inflated. A cached column is
 * read with no request.
 * @throws {DataError} DATA_FETCH_FAILED naming host, path and status; CACHE_CORRUPT for a manifest this version does not read.
 * @example const ds = await openRemoteDataset('https://cdn.example.com/sbir/', tmpdir()); ds.loadColumn('Agency');
 */
export async function openRemoteDataset(
  url: string,
  cacheDir: string,
  options: RemoteOptions = {},
  env: Record<string, string | undefined> = process.env,
): Promise<Dataset & { remote: RemoteStats; prefetch(names: string[]): Promise<void> }> {
  const opts = remoteOptions(options, env);
  const { folder, manifest: manifestUrl } = dataFolderUrl(url, opts.allowHttp);
  const dir = remoteCacheDir(cacheDir, folder.href);
  const stats: RemoteStats = { requests: 0, bytesFetched: 0 };
  prepareFetchThread();
  const { manifest, warning } = await loadManifest(manifestUrl, dir, opts, stats);
  const rebuild = `Upload the folder again from \`sbirtools build-data\` (the cache at ${dir} may be deleted at any time).`;
  const fromCache = new Set<string>();
  /** Columns fetched ahead of their first touch (prefetch), kept until that touch takes them. */
  const ahead = new Map<string, Uint8Array>();
  const started = new Set<string>();
  const ds = packDataset(
    manifest,
    (entry) => {
      const early = ahead.get(entry.name);
      if (early) {
        ahead.delete(entry.name);
        return early;
      }
      const path = columnCachePath(dir, entry.sha256);
      const cached = readCached(path, entry.bytes);
      if (cached) {
        fromCache.add(entry.name);
        return cached;
      }
      fromCache.delete(entry.name);
      const got = fetchColumnSync(new URL(entry.file, folder), entry.bytes, entry.sha256, path, opts);
      stats.requests += got.requests;
      stats.bytesFetched += got.bytes.byteLength;
      return got.bytes;
    },
    folder.href,
    rebuild,
  );
  if (warning) (ds.report.warnings ??= []).push(warning);
  return {
    ...ds,
    remote: stats,
    /**
     * Fetch the named columns that are neither loaded nor cached, all at once on this thread
     * (verified and cached as on a first touch), so a run that reads them waits for one round
     * trip, not one per column and not for the fetch thread's start. Never throws: a column that
     * fails here is fetched again by its first touch, which reports the failure.
     */
    async prefetch(names) {
      const byName = new Map(manifest.columns.map((c) => [c.name, c]));
      await Promise.all(
        names.map(async (name) => {
          const entry = byName.get(name);
          // a name in the code need not be read: a long-text column waits for its first touch
          if (!entry || started.has(name) || entry.bytes > Math.min(PREFETCH_MAX_BYTES, opts.maxColumnBytes)) return;
          started.add(name);
          const path = columnCachePath(dir, entry.sha256);
          if (existsSync(path)) return;
          try {
            const got = await fetchColumn(new URL(entry.file, folder), entry.bytes, entry.sha256, path, opts);
            stats.requests += got.requests;
            stats.bytesFetched += got.bytes.byteLength;
            ahead.set(name, got.bytes);
          } catch {
            // the first touch fetches it again and reports what fails
          }
        }),
      );
    },
    loadColumn(name) {
      try {
        return ds.loadColumn(name);
      } catch (err) {
        // a cached file damaged on this disk (it was verified when written): drop it, fetch again once
        const entry = manifest.columns.find((c) => c.name === name);
        if (!(err instanceof DataError) || err.code !== 'CACHE_CORRUPT' || !entry || !fromCache.has(name)) throw err;
        rmSync(columnCachePath(dir, entry.sha256), { force: true });
        return ds.loadColumn(name);
      }
    },
  };
}

async function loadManifest(
  url: URL,
  dir: string,
  opts: Required<RemoteOptions>,
  stats: RemoteStats,
): Promise<{ manifest: PackManifest; warning?: string }> {
  const cached = readCachedManifest(dir, url);
  if (cached && cached.meta.maxAgeS !== undefined && Date.now() - cached.meta.fetchedAt < cached.meta.maxAgeS * 1000)
    return { manifest: cached.manifest };
  const headers: Record<string, string> = {};
  if (cached?.meta.etag) headers['if-none-match'] = cached.meta.etag;
  if (cached?.meta.lastModified) headers['if-modified-since'] = cached.meta.lastModified;
  let got;
  try {
    got = await fetchBytes(url, opts, { maxBytes: MAX_MANIFEST_BYTES, ...(cached ? { headers } : {}) });
  } catch (err) {
    // offline or the host is down: a manifest fetched before still names verified columns
    if (cached && err instanceof DataError && err.status === undefined)
      return {
        manifest: cached.manifest,
        warning: `the manifest could not be refreshed (${err.message}); the cached copy from ${new Date(cached.meta.fetchedAt).toISOString()} is used`,
      };
    throw err;
  } finally {
    stats.requests += got?.requests ?? 0;
  }
  const meta: ManifestMeta = { url: url.href, fetchedAt: Date.now() };
  const maxAge = /(?:^|,)\s*max-age=(\d+)/i.exec(got.cacheControl ?? '');
  if (maxAge && !/no-cache|no-store/i.test(got.cacheControl ?? '')) meta.maxAgeS = Number(maxAge[1]);
  if (got.status === 304 && cached) {
    writeCachedSync(
      join(dir, 'manifest.meta.json'),
      Buffer.from(
        JSON.stringify({
          ...cached.meta,
          ...meta,
          etag: got.etag ?? cached.meta.etag,
          lastModified: got.lastModified ?? cached.meta.lastModified,
        }),
      ),
    );
    return { manifest: cached.manifest };
  }
  const text = Buffer.from(got.bytes.buffer, got.bytes.byteOffset, got.bytes.byteLength).toString('utf8');
  const manifest = parseManifest(text);
  if (typeof manifest === 'string') {
    if (/^format/.test(manifest))
      throw new DataError(
        'CACHE_CORRUPT',
        `The data folder at ${url.href} has a manifest this version of sbirtools does not read: ${manifest}. Rebuild it with \`sbirtools build-data\` and upload it again.`,
      );
    throw fetchFailed(url, `the manifest is ${manifest}`, got.status);
  }
  if (got.etag) meta.etag = got.etag;
  if (got.lastModified) meta.lastModified = got.lastModified;
  // manifest first, its validators second: a reader that finds validators finds their manifest
  if (writeCachedSync(join(dir, 'manifest.json'), got.bytes))
    writeCachedSync(join(dir, 'manifest.meta.json'), Buffer.from(JSON.stringify(meta)));
  return { manifest };
}

function readCachedManifest(dir: string, url: URL): { manifest: PackManifest; meta: ManifestMeta } | undefined {
  try {
    const meta = JSON.parse(readFileSync(join(dir, 'manifest.meta.json'), 'utf8')) as ManifestMeta;
    if (meta.url !== url.href || typeof meta.fetchedAt !== 'number') return undefined;
    const manifest = parseManifest(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    return typeof manifest === 'string' ? undefined : { manifest, meta };
  } catch {
    return undefined;
  }
}
