import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DatasetInfo } from '../../schema/result.js';
import { identityKey } from './cache/identity.js';
import { openCache, type CacheReader } from './cache/readCache.js';
import { DataError } from './errors.js';
import type { IngestReport } from './ingest/report.js';
import type { Dataset, DatasetProgress } from './dataset.js';
import type { DataSource } from './resolveDataSource.js';
import { syntheticSamplePath } from './syntheticSample.js';

/** The manifest that marks a folder as a prebuilt data directory. */
export const DATA_DIR_MANIFEST = 'sbirtools-data.json';
const CACHE_FILE = 'award_data.sbtc';

interface Manifest {
  v: 1;
  file: string;
  /** The cache header's source key: the file must carry this exact key. */
  key: string;
  info: DatasetInfo;
  createdAt: string;
}

/** True when `path` is a data directory written by writeDataDir(). */
export function isDataDir(path: string): boolean {
  try {
    return statSync(path).isDirectory() && existsSync(join(path, DATA_DIR_MANIFEST));
  } catch {
    return false;
  }
}

/**
 * Build a self-contained, read-only data directory at build time: award_data's binary cache plus
 * a manifest, nothing else (the CSV is not needed to open it). Point `dataPath` (or
 * SBIRTOOLS_CSV_PATH, or `--data`) at the folder; opening it reads and never writes.
 * `openDataset` is passed in (the caller's data layer) to ingest the source into a scratch cache.
 * @throws {DataError} what opening the source throws (DATA_NOT_FOUND...), or DISK_FULL-like write errors as DATA_READ_ERROR.
 */
export async function writeDataDir(
  outDir: string,
  source: DataSource,
  openDataset: (s: DataSource, o?: { onProgress?: (p: DatasetProgress) => void }) => Promise<Dataset>,
  onProgress?: (p: DatasetProgress) => void,
): Promise<{ dir: string; bytes: number; info: DatasetInfo }> {
  const scratch = mkdtempSync(join(tmpdir(), 'sbirtools-build-data-'));
  try {
    const ds = await openDataset({ ...source, cacheDir: scratch }, onProgress ? { onProgress } : {});
    ds.close();
    const columnar = join(scratch, 'columnar');
    const built = existsSync(columnar) ? readdirSync(columnar).filter((f) => f.endsWith('.sbtc')) : [];
    if (built.length !== 1) throw new DataError('DATA_READ_ERROR', `The binary cache was not written while building the data directory (${ds.report.warnings.join('; ') || 'no cache file'}).`);
    const csv = source.kind === 'csv' ? source.path! : syntheticSamplePath(scratch);
    const key = identityKey(csv, statSync(csv));
    const dir = resolve(outDir);
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(columnar, built[0]!), join(dir, CACHE_FILE));
    const manifest: Manifest = { v: 1, file: CACHE_FILE, key, info: ds.info, createdAt: new Date().toISOString() };
    writeFileSync(join(dir, DATA_DIR_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    return { dir, bytes: statSync(join(dir, CACHE_FILE)).size, info: ds.info };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Open a data directory read-only: the manifest and the cache header are read, columns load
 * lazily; nothing is written anywhere, so it works from a read-only filesystem.
 * @throws {DataError} CACHE_CORRUPT when the manifest or the cache file is damaged or mismatched.
 */
export function openDataDir(dir: string): Dataset {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, DATA_DIR_MANIFEST), 'utf8')) as Manifest;
  } catch (err) {
    throw new DataError('CACHE_CORRUPT', `The data directory ${dir} has an unreadable ${DATA_DIR_MANIFEST} (${(err as Error).message}). Rebuild it with \`sbirtools build-data ${dir}\`.`);
  }
  if (manifest.v !== 1 || typeof manifest.file !== 'string' || typeof manifest.key !== 'string' || /[/\\]/.test(manifest.file)) {
    throw new DataError('CACHE_CORRUPT', `The data directory ${dir} has a manifest this version of sbirtools does not read. Rebuild it with \`sbirtools build-data ${dir}\`.`);
  }
  const opened = openCache(join(dir, manifest.file), manifest.key);
  if (!opened.ok) throw new DataError('CACHE_CORRUPT', `The data directory ${dir} cannot be used: its cache file is ${opened.reason}. Rebuild it with \`sbirtools build-data ${dir}\` (sbirtools never rewrites a data directory).`);
  return datasetFromCache(opened.reader);
}

/** A Dataset over an open cache file. */
export function datasetFromCache(reader: CacheReader): Dataset {
  const h = reader.header;
  return {
    info: h.info,
    meta: { name: h.name, numRows: h.numRows, columns: h.columns.map(({ name, type, kind }) => ({ name, type, kind })) },
    report: h.report as unknown as IngestReport,
    loadColumn: (name) => reader.loadColumn(name),
    close: () => reader.close(),
  };
}
