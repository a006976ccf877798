import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultCacheDir, DOWNLOAD_FILE, ENV, envValue } from './paths.js';

/**
 * Where award_data comes from. Small and serializable: it travels over IPC to the holder process.
 * `origin` says which rule picked it (for error messages).
 */
export interface DataSource {
  kind: 'csv' | 'synthetic';
  /** Absolute path of the CSV (kind 'csv'). */
  path?: string;
  /** Absolute cache directory (binary caches, the download, the synthetic sample). */
  cacheDir: string;
  origin?: 'dataPath' | 'env' | 'download' | 'synthetic';
}

/** Options of {@link resolveDataSource}. */
export interface ResolveDataSourceOptions {
  /** A local SBIR CSV (either layout). @default env SBIRTOOLS_CSV_PATH */
  dataPath?: string;
  /** @default env SBIRTOOLS_CACHE_DIR, else ~/.cache/sbirtools */
  cacheDir?: string;
  /** @default process.env */
  env?: Record<string, string | undefined>;
}

/**
 * Picks the data source, first match wins: `dataPath`, env `SBIRTOOLS_CSV_PATH`, the downloaded
 * `<cacheDir>/award_data.csv`, else the embedded synthetic sample. Does not open anything; a
 * missing file is reported by openDataset.
 * @example resolveDataSource({ env: process.env }) // { kind: 'synthetic', cacheDir: '/home/me/.cache/sbirtools', origin: 'synthetic' }
 */
export function resolveDataSource(opts: ResolveDataSourceOptions = {}): DataSource {
  const env = opts.env ?? process.env;
  const cacheDir = resolve(opts.cacheDir ?? envValue(env, ENV.cacheDir) ?? defaultCacheDir());
  if (opts.dataPath) return { kind: 'csv', path: resolve(opts.dataPath), cacheDir, origin: 'dataPath' };
  const fromEnv = envValue(env, ENV.csvPath);
  if (fromEnv) return { kind: 'csv', path: resolve(fromEnv), cacheDir, origin: 'env' };
  const downloaded = join(cacheDir, DOWNLOAD_FILE);
  if (existsSync(downloaded)) return { kind: 'csv', path: downloaded, cacheDir, origin: 'download' };
  return { kind: 'synthetic', cacheDir, origin: 'synthetic' };
}
