import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultCacheDir, DOWNLOAD_FILE, ENV, envValue } from './paths.js';
import { REMOTE_ENV, remoteOptions, type RemoteOptions } from './remote/remoteOptions.js';
import { isDataUrl } from './remote/remoteUrl.js';

/**
 * Where award_data comes from. Small and serializable: it travels over IPC to the holder process.
 * `origin` says which rule picked it (for error messages).
 */
export interface DataSource {
  kind: 'csv' | 'synthetic' | 'remote';
  /** Absolute path of the CSV or of a built data folder (kind 'csv'). */
  path?: string;
  /** URL of a built data folder on a static host (kind 'remote'). */
  url?: string;
  /** How remote data is fetched, defaults and environment merged (kind 'remote'). */
  remote?: RemoteOptions;
  /** Absolute cache directory (binary caches, the download, the synthetic sample). */
  cacheDir: string;
  origin?: 'dataPath' | 'env' | 'download' | 'synthetic' | 'dataUrlEnv';
}

/** Options of {@link resolveDataSource}. */
export interface ResolveDataSourceOptions {
  /**
   * A local SBIR CSV (either layout), a built data folder, or the https:// URL of a built data
   * folder on a static host. @default env SBIRTOOLS_DATA_URL, then SBIRTOOLS_CSV_PATH
   */
  dataPath?: string;
  /** How remote data is fetched (limits, http and redirect permissions). */
  remote?: RemoteOptions;
  /** @default env SBIRTOOLS_CACHE_DIR, else ~/.cache/sbirtools */
  cacheDir?: string;
  /** @default process.env */
  env?: Record<string, string | undefined>;
}

/**
 * Picks the data source, first match wins: `dataPath` (a path, or an http(s) URL of a built data
 * folder), env `SBIRTOOLS_DATA_URL`, env `SBIRTOOLS_CSV_PATH`, the downloaded
 * `<cacheDir>/award_data.csv`, else the embedded synthetic sample. Does not open anything; a
 * missing file is reported by openDataset. Remote data is cached under `cacheDir` when it is given
 * (option or SBIRTOOLS_CACHE_DIR), else under the temp directory (the one writable place of a
 * serverless function).
 * @throws {TypeError} for a malformed `remote` option.
 * @example resolveDataSource({ env: process.env }) // { kind: 'synthetic', cacheDir: '/home/me/.cache/sbirtools', origin: 'synthetic' }
 */
export function resolveDataSource(opts: ResolveDataSourceOptions = {}): DataSource {
  const env = opts.env ?? process.env;
  const explicitCache = opts.cacheDir ?? envValue(env, ENV.cacheDir);
  const cacheDir = resolve(explicitCache ?? defaultCacheDir());
  const url =
    opts.dataPath && isDataUrl(opts.dataPath)
      ? opts.dataPath
      : opts.dataPath
        ? undefined
        : envValue(env, REMOTE_ENV.url);
  if (url) {
    const origin = opts.dataPath ? 'dataPath' : 'dataUrlEnv';
    return {
      kind: 'remote',
      url,
      cacheDir: resolve(explicitCache ?? join(tmpdir(), 'sbirtools')),
      origin,
      remote: remoteOptions(opts.remote, env),
    };
  }
  if (opts.dataPath) return { kind: 'csv', path: resolve(opts.dataPath), cacheDir, origin: 'dataPath' };
  const fromEnv = envValue(env, ENV.csvPath);
  if (fromEnv) return { kind: 'csv', path: resolve(fromEnv), cacheDir, origin: 'env' };
  const downloaded = join(cacheDir, DOWNLOAD_FILE);
  if (existsSync(downloaded)) return { kind: 'csv', path: downloaded, cacheDir, origin: 'download' };
  return { kind: 'synthetic', cacheDir, origin: 'synthetic' };
}
