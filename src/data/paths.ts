import { homedir } from 'node:os';
import { join } from 'node:path';

/** The official current bulk file (42 columns). */
export const OFFICIAL_CSV_URL = 'https://data.www.sbir.gov/mod_awarddatapublic/award_data.csv';
/** File name of the download inside the cache directory. */
export const DOWNLOAD_FILE = 'award_data.csv';

/** Environment variables read by the data layer. */
export const ENV = {
  csvPath: 'SBIRTOOLS_CSV_PATH',
  cacheDir: 'SBIRTOOLS_CACHE_DIR',
  csvUrl: 'SBIRTOOLS_CSV_URL',
} as const;

/** `~/.cache/sbirtools`. */
export function defaultCacheDir(): string {
  return join(homedir(), '.cache', 'sbirtools');
}

/** An env var's value, or undefined when unset or blank. */
export function envValue(env: Record<string, string | undefined>, name: string): string | undefined {
  const v = env[name];
  return v !== undefined && v.trim() !== '' ? v : undefined;
}
