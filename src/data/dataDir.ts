import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DatasetInfo } from '../../schema/result.js';
import { identityKey } from './cache/identity.js';
import { READ_VERSIONS } from './cache/format.js';
import { openCache, type CacheReader } from './cache/readCache.js';
import { DataError } from './errors.js';
import type { IngestReport } from './ingest/report.js';
import type { Dataset, DatasetProgress } from './dataset.js';
import type { DataSource } from './resolveDataSource.js';
import { syntheticSamplePath } from './syntheticSample.js';
import { DATA_DIR_MANIFEST, parseManifest } from './pack/manifest.js';
import { localColumnFiles, packDataset } from './pack/readPack.js';
import { writePack } from './pack/writePack.js';
import { isDiskFull, isUnwritable } from './errors.js';

export { DATA_DIR_MANIFEST };
/** The single cache file of a format-1 folder (still read; no longer written). */
const V1_CACHE_FILE = 'award_data.sbtc';

/** A format-1 manifest (one uncompressed binary cache), written by earlier versions. */
interface ManifestV1 {
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
 * Build a self-contained, read-only data folder at build time (format 2, docs/dataset.md "On-disk
 * layout"): a manifest and one gzip-compressed file per column, nothing else (the CSV is not
 * needed to open it). Point `dataPath` (or SBIRTOOLS_CSV_PATH, `--data`) at the folder, or upload
 * it to a static host and point them at its URL; opening it reads and never writes.
 * `openDataset` is passed in (the caller's data layer) to ingest the source into a scratch cache.
 * @throws {DataError} what opening the source throws (DATA_NOT_FOUND...); DISK_FULL or CACHE_DIR_UNWRITABLE for the output folder.
 */
export async function writeDataDir(
  outDir: string,
  source: DataSource,
  openDataset: (s: DataSource, o?: { onProgress?: (p: DatasetProgress) => void }) => Promise<Dataset>,
  onProgress?: (p: DatasetProgress) => void,
): Promise<{ dir: string; bytes: number; info: DatasetInfo }> {
  if (source.kind === 'remote')
    throw new DataError(
      'DATA_NOT_FOUND',
      `build-data reads a local CSV or data folder, not a URL (${source.url}). Download the CSV first (\`sbirtools download-data\`).`,
    );
  const scratch = mkdtempSync(join(tmpdir(), 'sbirtools-build-data-'));
  try {
    const ds = await openDataset({ ...source, cacheDir: scratch }, onProgress ? { onProgress } : {});
    const csv = source.kind === 'csv' ? source.path! : syntheticSamplePath(scratch);
    // a data folder rebuilt (format 1 -> 2) keeps its source's identity
    const key = isDataDir(csv)
      ? String((JSON.parse(readFileSync(join(csv, DATA_DIR_MANIFEST), 'utf8')) as { key?: unknown }).key)
      : identityKey(csv, statSync(csv));
    const dir = resolve(outDir);
    let bytes: number;
    try {
      ({ bytes } = await writePack(dir, ds, key));
      // a format-1 folder rebuilt in place: its old cache file is no longer named by the manifest
      rmSync(join(dir, V1_CACHE_FILE), { force: true });
    } catch (err) {
      if (isDiskFull(err))
        throw new DataError(
          'DISK_FULL',
          `No space left to write the data folder ${dir}. Free some disk space or build it on a larger disk.`,
          { cause: err },
        );
      if (isUnwritable(err))
        throw new DataError('CACHE_DIR_UNWRITABLE', `Cannot write the data folder ${dir}. Choose a writable folder.`, {
          cause: err,
        });
      throw err;
    } finally {
      ds.close();
    }
    return { dir, bytes, info: ds.info };
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
  const rebuild = `Rebuild it with \`sbirtools build-data ${dir}\` (sbirtools never rewrites a data folder).`;
  let text: string;
  try {
    text = readFileSync(join(dir, DATA_DIR_MANIFEST), 'utf8');
  } catch (err) {
    throw new DataError(
      'CACHE_CORRUPT',
      `The data directory ${dir} has an unreadable ${DATA_DIR_MANIFEST} (${(err as Error).message}). ${rebuild}`,
    );
  }
  let v: unknown;
  try {
    v = (JSON.parse(text) as { v?: unknown } | null)?.v;
  } catch (err) {
    throw new DataError(
      'CACHE_CORRUPT',
      `The data directory ${dir} has an unreadable ${DATA_DIR_MANIFEST} (${(err as Error).message}). ${rebuild}`,
    );
  }
  if (v === 1) return openDataDirV1(dir, JSON.parse(text) as ManifestV1);
  const manifest = parseManifest(text);
  if (typeof manifest === 'string')
    throw new DataError(
      'CACHE_CORRUPT',
      `The data directory ${dir} has a ${DATA_DIR_MANIFEST} this version of sbirtools does not read: ${manifest}. ${rebuild}`,
    );
  // every column file present with its size, checked now (42 stats) rather than at first touch
  for (const c of manifest.columns) {
    let size: number | undefined;
    try {
      size = statSync(join(dir, c.file)).size;
    } catch {
      size = undefined;
    }
    if (size !== c.bytes)
      throw new DataError(
        'CACHE_CORRUPT',
        `The data directory ${dir} cannot be used: ${c.file} (column ${JSON.stringify(c.name)}) is ${size === undefined ? 'missing' : `${size} bytes, its manifest says ${c.bytes}`}. ${rebuild}`,
      );
  }
  return packDataset(manifest, localColumnFiles(dir, rebuild), dir, rebuild);
}

/** A format-1 folder: one uncompressed binary cache, opened as before. */
function openDataDirV1(dir: string, manifest: ManifestV1): Dataset {
  if (typeof manifest.file !== 'string' || typeof manifest.key !== 'string' || /[/\\]/.test(manifest.file)) {
    throw new DataError(
      'CACHE_CORRUPT',
      `The data directory ${dir} has a manifest this version of sbirtools does not read. Rebuild it with \`sbirtools build-data ${dir}\`.`,
    );
  }
  // a folder is never rewritten: one of cache format 2 (CRC-32 blocks) still reads
  const opened = openCache(join(dir, manifest.file), manifest.key, READ_VERSIONS);
  if (!opened.ok)
    throw new DataError(
      'CACHE_CORRUPT',
      `The data directory ${dir} cannot be used: its cache file is ${opened.reason}. Rebuild it with \`sbirtools build-data ${dir}\` (sbirtools never rewrites a data directory).`,
    );
  return datasetFromCache(opened.reader);
}

/** A Dataset over an open cache file. */
export function datasetFromCache(reader: CacheReader): Dataset {
  const h = reader.header;
  return {
    info: h.info,
    meta: {
      name: h.name,
      numRows: h.numRows,
      columns: h.columns.map(({ name, type, kind }) => ({ name, type, kind })),
    },
    report: h.report as unknown as IngestReport,
    loadColumn: (name) => reader.loadColumn(name),
    loadRows: (name, start, end, reuse) => reader.loadRows(name, start, end, reuse),
    loadWindow: (name, start, end) => reader.loadWindow(name, start, end),
    textLengths: (name, start, end) => reader.textLengths(name, start, end),
    textUnits: (name, start, end) => reader.textUnits(name, start, end),
    textEquals: (name, start, end, needle) => reader.textEquals(name, start, end, needle),
    textScanPages: (name, req, pageRows) => reader.textScanPages(name, req, pageRows),
    warmScan: () => reader.warmScan(),
    warmReads: () => reader.warmReads(),
    close: () => reader.close(),
  };
}
