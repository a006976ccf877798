import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { ColumnData } from '../../../schema/columnar.js';
import { DataError } from '../errors.js';
import type { IngestReport } from '../ingest/report.js';
import type { Dataset } from '../dataset.js';
import { inflateColumn } from './inflateColumn.js';
import type { PackColumn, PackManifest } from './manifest.js';

/** Where a column file's bytes come from: a local folder, or the remote cache (remote/). */
export type ColumnFileSource = (entry: PackColumn) => Uint8Array;

/**
 * A Dataset over a format-2 manifest: each column's file is obtained on first use from `source`,
 * inflated, checked and memoized.
 * @throws {DataError} COLUMN_NOT_FOUND; CACHE_CORRUPT (`label` names the folder) when a column file is damaged.
 * @example packDataset(manifest, localColumnFiles(dir), dir)
 */
export function packDataset(
  manifest: PackManifest,
  source: ColumnFileSource,
  label: string,
  rebuildHint: string,
): Dataset {
  const byName = new Map(manifest.columns.map((c) => [c.name, c]));
  const memo = new Map<string, ColumnData>();
  let closed = false;
  return {
    info: manifest.info,
    meta: {
      name: manifest.name,
      numRows: manifest.numRows,
      columns: manifest.columns.map(({ name, type, kind }) => ({ name, type, kind })),
    },
    report: manifest.report as unknown as IngestReport,
    loadColumn(name) {
      const hit = memo.get(name);
      if (hit) return hit;
      const entry = byName.get(name);
      if (!entry) {
        const names = manifest.columns.map((c) => JSON.stringify(c.name)).join(', ');
        throw new DataError(
          'COLUMN_NOT_FOUND',
          `${manifest.name} has no column ${JSON.stringify(name)}. Its columns are: ${names}.`,
        );
      }
      if (closed)
        throw new DataError(
          'DATA_READ_ERROR',
          `The dataset ${manifest.name} was closed; open it again with openDataset().`,
        );
      const col = inflateColumn(entry, manifest.numRows, source(entry));
      if (typeof col === 'string')
        throw new DataError(
          'CACHE_CORRUPT',
          `The data folder ${label} is damaged (column ${JSON.stringify(name)}, ${entry.file}: ${col}). ${rebuildHint}`,
        );
      memo.set(name, col);
      return col;
    },
    close() {
      closed = true;
    },
  };
}

/**
 * Column files read from a local data folder: one positional read of the whole file.
 * @throws {DataError} CACHE_CORRUPT when the file is missing or shorter than the manifest says.
 */
export function localColumnFiles(dir: string, rebuildHint: string): ColumnFileSource {
  return (entry) => {
    const path = join(dir, entry.file);
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (err) {
      throw new DataError(
        'CACHE_CORRUPT',
        `The data folder ${dir} lacks ${entry.file} (column ${JSON.stringify(entry.name)}): ${(err as NodeJS.ErrnoException).code}. ${rebuildHint}`,
      );
    }
    try {
      const size = fstatSync(fd).size;
      if (size !== entry.bytes)
        throw new DataError(
          'CACHE_CORRUPT',
          `The data folder ${dir} has ${entry.file} of ${size} bytes, its manifest says ${entry.bytes} (column ${JSON.stringify(entry.name)}). ${rebuildHint}`,
        );
      const buf = new Uint8Array(size);
      for (let done = 0; done < size;) {
        const n = readSync(fd, buf, done, size - done, done);
        if (n === 0)
          throw new DataError('CACHE_CORRUPT', `The data folder ${dir}: ${entry.file} ended early. ${rebuildHint}`);
        done += n;
      }
      return buf;
    } finally {
      closeSync(fd);
    }
  };
}
