import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { readFile, rm, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { ColumnarTable } from '../../../schema/columnar.js';
import { DataError } from '../errors.js';
import { tableFromCsv } from '../tables.js';
import { capHint, DEFAULT_DECODE_CAPS, type DecodeCaps } from './decodeCaps.js';
import { decodeInWorker } from './decodeInWorker.js';
import { detectFormat, TABLE_FORMATS, type TableFormat } from './detectFormat.js';
import { downloadTable, type TableDownloadOptions } from './downloadTable.js';

/** A table file: a path or http(s) URL, raw bytes, or an object that names the format. */
export type TableSource =
  | string
  | Uint8Array
  | ArrayBuffer
  | { path?: string; url?: string; bytes?: Uint8Array | ArrayBuffer; format?: TableFormat };

/** A loaded table: CSV files stay paths (the holder ingests them); every other format is decoded here. */
export type LoadedTable =
  | { kind: 'csv'; path: string }
  | { kind: 'columnar'; table: ColumnarTable }
  /** With `decodeLater`: a checked Parquet/Arrow/JSON file the caller decodes where it keeps tables. */
  | { kind: 'file'; path: string; format: Exclude<TableFormat, 'csv'> };

/**
 * Load a user table from a path, a URL (downloaded into `<cacheDir>/tables/` with size and
 * completeness checks) or bytes, in any of CSV, Parquet, Arrow IPC, JSON or NDJSON. The format is
 * the object's `format`, else the file's magic bytes, else its extension. Parquet, Arrow and JSON
 * are decoded in a worker thread under `caps` (decodeInWorker.ts); with `decodeLater` a file on disk
 * is only checked (exists, size, format) and returned as a path for the holder to decode and keep.
 * `download` bounds a URL's transfer and chooses where it may connect (downloadTable).
 * @throws {DataError} DATA_NOT_FOUND, DATA_TOO_LARGE, DATA_CORRUPT, DATA_UNSUPPORTED, DATA_SCHEMA_MISMATCH, DOWNLOAD_*.
 * @example await loadTable('portfolio', './portfolio.parquet', { cacheDir })
 */
export async function loadTable(
  name: string,
  source: TableSource,
  opts: { cacheDir: string; caps?: Partial<DecodeCaps>; decodeLater?: boolean; download?: TableDownloadOptions },
): Promise<LoadedTable> {
  const caps: DecodeCaps = { ...DEFAULT_DECODE_CAPS, ...opts.caps };
  const spec =
    typeof source === 'string'
      ? /^https?:\/\//i.test(source)
        ? { url: source }
        : { path: source }
      : source instanceof Uint8Array || source instanceof ArrayBuffer
        ? { bytes: source }
        : source;
  if (spec.format !== undefined && !(TABLE_FORMATS as readonly string[]).includes(spec.format)) {
    throw new DataError('DATA_UNSUPPORTED', `table ${name}: unknown format ${JSON.stringify(spec.format)}`, {
      hint: `Use one of ${TABLE_FORMATS.join(', ')}.`,
    });
  }
  if (spec.bytes !== undefined) {
    const bytes = spec.bytes instanceof ArrayBuffer ? new Uint8Array(spec.bytes) : spec.bytes;
    return fromBytes(name, bytes, `${name} (bytes)`, spec.format ?? detectFormat(bytes.subarray(0, 4096)), caps);
  }
  const path =
    spec.url !== undefined
      ? await downloadTable(spec.url, opts.cacheDir, caps.maxInputBytes, opts.download)
      : resolve(String(spec.path ?? ''));
  const label = spec.url ?? basename(path);
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new Error('not a file');
    size = st.size;
  } catch {
    throw new DataError('DATA_NOT_FOUND', `table ${name}: no file at ${spec.path ?? path}`, {
      hint: 'Check the path (relative paths are resolved from the current directory).',
    });
  }
  const format = spec.format ?? detectFormat(head(path), spec.url ?? path);
  // a CSV is parsed whole into memory by the holder: the same cap as every other table file
  if (size > caps.maxInputBytes) {
    throw new DataError(
      'DATA_TOO_LARGE',
      `${label}: ${size} bytes, more than the ${caps.maxInputBytes}-byte limit for a table file`,
      { hint: capHint('maxInputBytes', caps, 'Filter or aggregate the data first, or split the file.') },
    );
  }
  if (format === 'csv') return { kind: 'csv', path };
  if (opts.decodeLater) return { kind: 'file', path, format };
  return {
    kind: 'columnar',
    table: await decodeInWorker(name, new Uint8Array(await readFile(path)), label, format, caps),
  };
}

async function fromBytes(
  name: string,
  bytes: Uint8Array,
  label: string,
  format: TableFormat,
  caps: DecodeCaps,
): Promise<LoadedTable> {
  if (bytes.byteLength > caps.maxInputBytes) {
    throw new DataError(
      'DATA_TOO_LARGE',
      `${label}: ${bytes.byteLength} bytes, more than the ${caps.maxInputBytes}-byte limit for a table`,
      { hint: capHint('maxInputBytes', caps, 'Send a smaller table: filter or aggregate it first.') },
    );
  }
  if (format !== 'csv') return { kind: 'columnar', table: await decodeInWorker(name, bytes, label, format, caps) };
  // CSV bytes go through the same hardened ingest as CSV files, from a private temporary file
  const dir = await mkdtemp(join(tmpdir(), 'sbirtools-table-'));
  try {
    const file = join(dir, 'table.csv');
    await writeFile(file, bytes);
    return { kind: 'columnar', table: await tableFromCsv(name, file) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function head(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const buf = new Uint8Array(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}
