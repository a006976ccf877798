import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCb, constants } from 'node:zlib';
import type { ColumnData } from '../../../schema/columnar.js';
import { ROLES } from '../cache/format.js';
import type { Dataset } from '../dataset.js';
import {
  DATA_DIR_MANIFEST,
  PACK_FORMAT,
  PACK_VERSION,
  type PackBuffer,
  type PackColumn,
  type PackManifest,
} from './manifest.js';
import { concatBytes } from '../concatBytes.js';

const gzip = promisify(gzipCb);
/** zlib level 6: within a few % of level 9's size at a third of its time (docs/benchmarks.md). */
export const GZIP_LEVEL = 6;
/** A buffer this long or longer is stored in independent pages (manifest.ts `pages`): long text. */
const PAGED_MIN_BYTES = 64 * 1024 * 1024;
/** Raw bytes per page: enough pages to share among a few threads, each still compressing as well as one stream would (gzip's window is 32 KiB). */
const PAGE_RAW_BYTES = 8 * 1024 * 1024;

/**
 * Writes a format-2 data folder from an open Dataset: one gzip-compressed file per column, then
 * the manifest last (temp file + rename), so a folder whose build was cut short has no manifest
 * that names missing files. Columns are loaded and compressed one at a time (memory stays one
 * column), the buffers of a column in parallel on libuv's thread pool.
 * @returns the manifest and the folder's total size in bytes.
 * @example await writePack('/srv/data', ds, key)
 */
export async function writePack(
  dir: string,
  ds: Dataset,
  key: string,
  /** Where paging starts and the page size (tests make them small). */
  paging: { minBytes: number; pageBytes: number } = { minBytes: PAGED_MIN_BYTES, pageBytes: PAGE_RAW_BYTES },
): Promise<{ manifest: PackManifest; bytes: number }> {
  await mkdir(join(dir, 'columns'), { recursive: true });
  const width = ds.meta.columns.length > 100 ? 3 : 2;
  const columns: PackColumn[] = [];
  let total = 0;
  for (const [i, meta] of ds.meta.columns.entries()) {
    const file = `columns/${String(i).padStart(width, '0')}.col`;
    const { bytes, buffers } = await packColumn(ds.loadColumn(meta.name), paging);
    await writeAtomic(join(dir, file), bytes);
    total += bytes.byteLength;
    columns.push({
      name: meta.name,
      type: meta.type,
      kind: meta.kind,
      file,
      bytes: bytes.byteLength,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      buffers,
    });
  }
  const manifest: PackManifest = {
    format: PACK_FORMAT,
    v: PACK_VERSION,
    key,
    name: ds.meta.name,
    numRows: ds.meta.numRows,
    info: ds.info,
    report: { ...ds.report },
    createdAt: new Date().toISOString(),
    codec: 'gzip',
    columns,
  };
  const text = `${JSON.stringify(manifest, null, 1)}\n`;
  await writeAtomic(join(dir, DATA_DIR_MANIFEST), Buffer.from(text));
  return { manifest, bytes: total + Buffer.byteLength(text) };
}

async function packColumn(
  col: ColumnData,
  paging: { minBytes: number; pageBytes: number },
): Promise<{ bytes: Uint8Array; buffers: Record<string, PackBuffer> }> {
  const data = col as unknown as Record<string, Float64Array | Int32Array | Uint8Array>;
  const roles = ROLES[col.kind];
  const stored = await Promise.all(
    roles.map(async (role) => {
      const a = data[role]!;
      const raw = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      if (raw.byteLength === 0) return { raw, out: raw, codec: 'none' as const };
      const paged = raw.byteLength >= paging.minBytes;
      const parts = await Promise.all(
        (paged ? pageSlices(raw, paging.pageBytes) : [raw]).map(
          async (part) =>
            new Uint8Array(
              await gzip(part, { level: GZIP_LEVEL, memLevel: 9, strategy: constants.Z_DEFAULT_STRATEGY }),
            ),
        ),
      );
      const z = parts.length === 1 ? parts[0]! : concatBytes(parts);
      if (z.byteLength >= raw.byteLength) return { raw, out: raw, codec: 'none' as const };
      return {
        raw,
        out: z,
        codec: 'gzip' as const,
        ...(paged ? { pages: parts.map((p) => p.byteLength), pageRaw: paging.pageBytes } : {}),
      };
    }),
  );
  const bytes = new Uint8Array(stored.reduce((n, s) => n + s.out.byteLength, 0));
  const buffers: Record<string, PackBuffer> = {};
  let at = 0;
  for (const [i, s] of stored.entries()) {
    bytes.set(s.out, at);
    buffers[roles[i]!] = {
      offset: at,
      length: s.out.byteLength,
      rawLength: s.raw.byteLength,
      codec: s.codec,
      ...('pages' in s ? { pages: s.pages, pageRaw: s.pageRaw } : {}),
    };
    at += s.out.byteLength;
  }
  return { bytes, buffers };
}

function pageSlices(raw: Uint8Array, size: number): Uint8Array[] {
  const pages: Uint8Array[] = [];
  for (let at = 0; at < raw.byteLength; at += size) pages.push(raw.subarray(at, at + size));
  return pages;
}

/** Temp file in the same folder, renamed over `path` when complete; removed on failure. */
export async function writeAtomic(path: string, bytes: Uint8Array): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(tmp, bytes, { flag: 'wx' });
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
}
