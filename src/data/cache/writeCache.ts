import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ColumnarTable, ColumnData } from '../../../schema/columnar.js';
import { textScan } from '../columns/textScan.js';
import type { DatasetInfo } from '../../../schema/result.js';
import { DataError, isDiskFull, isUnwritable } from '../errors.js';
import type { IngestReport } from '../ingest/report.js';
import { blockSum } from './blockSum.js';
import { crc32 } from './crc32.js';
import {
  align8,
  BLOCK_BYTES,
  blockCount,
  CACHE_MAGIC,
  CACHE_VERSION,
  CHARS_ROLE,
  MAX_SHORT_VALUES,
  MAX_WIDE_ROWS,
  PREFIX_BYTES,
  ROLES,
  SHORT_BYTES,
  SHORT_ROLE,
  type CacheHeader,
  type ColumnEntry,
} from './format.js';

/** What a cache file stores besides the columns. */
export interface CacheContents {
  key: string;
  table: ColumnarTable;
  info: DatasetInfo;
  report: IngestReport;
}

/**
 * Writes the binary columnar cache atomically: a temp file in the same directory, renamed over
 * `path` only when complete. A failure removes the temp file and leaves any old cache untouched.
 * @throws {DataError} DISK_FULL or CACHE_DIR_UNWRITABLE, with the directory to fix.
 * @example await writeCache('/cache/columnar/ab12.sbtc', { key, table, info, report });
 */
export async function writeCache(path: string, contents: CacheContents): Promise<void> {
  const { header, buffers } = layout(contents);
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(PREFIX_BYTES);
  CACHE_MAGIC.copy(prefix, 0);
  prefix.writeUInt32LE(CACHE_VERSION, 8);
  prefix.writeUInt32LE(json.length, 12);
  prefix.writeUInt32LE(crc32(json), 16);
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await mkdir(dirname(path), { recursive: true });
    const fh = await open(tmp, 'wx');
    try {
      await fh.write(prefix, 0, PREFIX_BYTES, 0);
      await fh.write(json, 0, json.length, PREFIX_BYTES);
      for (const { ref, data } of buffers) if (data.length > 0) await fh.write(data, 0, data.length, ref.offset);
      await fh.truncate(header.fileBytes); // pads the last buffer to its aligned end
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => {});
    if (isDiskFull(err)) {
      throw new DataError(
        'DISK_FULL',
        `No space left to write the data cache in ${dirname(path)}. Free some disk space or set SBIRTOOLS_CACHE_DIR to a larger disk.`,
        { cause: err },
      );
    }
    if (isUnwritable(err)) {
      throw new DataError(
        'CACHE_DIR_UNWRITABLE',
        `Cannot write the data cache in ${dirname(path)}. Make it writable or set SBIRTOOLS_CACHE_DIR to a writable directory.`,
        { cause: err },
      );
    }
    throw err;
  }
}

type Typed = Float64Array | Int32Array | Uint8Array;

/** Computes every buffer's aligned offset; the header's own length decides where data starts. */
function layout({ key, table, info, report }: CacheContents) {
  const columns = table.columns.map((c) => {
    const data = c.data as unknown as Record<string, Typed>;
    const counts = c.data.kind === 'utf8' ? charCounts(c.data) : null;
    const short = c.data.kind === 'utf8' ? shortIndex(c.data) : null;
    return {
      c,
      wideRows: counts?.wideRows,
      shortValues: short?.values,
      parts: [
        ...ROLES[c.data.kind].map((role) => ({ role, data: bytesOf(data[role]) })),
        // cache only (not a column buffer): characters per row, so a length needs no text read
        ...(counts ? [{ role: CHARS_ROLE, data: bytesOf(counts.chars) }] : []),
        // cache only: which short string each row is, so an equality with one needs no text read
        ...(short ? [{ role: SHORT_ROLE, data: short.codes }] : []),
      ].map((p) => ({ ...p, table: blockTable(p.data) })),
    };
  });
  const build = (dataStart: number) => {
    let at = dataStart;
    const buffers: Array<{ ref: { offset: number }; data: Uint8Array }> = [];
    const entries: ColumnEntry[] = columns.map(({ c, wideRows, shortValues, parts }) => {
      const refs: ColumnEntry['buffers'] = {};
      for (const { role, data, table } of parts) {
        const crcs = align8(at + data.length);
        refs[role] = { offset: at, length: data.length, crcs };
        buffers.push({ ref: { offset: at }, data }, { ref: { offset: crcs }, data: table });
        at = align8(crcs + table.length);
      }
      return {
        name: c.name,
        type: c.type,
        kind: c.kind,
        buffers: refs,
        ...(wideRows ? { wideRows } : {}),
        ...(shortValues ? { shortValues } : {}),
      };
    });
    const header: CacheHeader = {
      key,
      fileBytes: Math.max(at, dataStart),
      name: table.name,
      numRows: table.numRows,
      info,
      report: { ...report },
      columns: entries,
    };
    return { header, buffers };
  };
  // offsets change the header's length; grow the reserved room until the header fits in it
  let room = 4096;
  for (;;) {
    const dataStart = align8(PREFIX_BYTES + room);
    const result = build(dataStart);
    if (PREFIX_BYTES + Buffer.byteLength(JSON.stringify(result.header)) <= dataStart) return result;
    room *= 2;
  }
}

/**
 * Characters (code points) per row, -1 for null (textScan's `len`), computed page by page, and the
 * rows whose UTF-16 length (textScan's `units`) is larger, with the difference (format.ts
 * `wideRows`; undefined past MAX_WIDE_ROWS such rows).
 */
function charCounts(data: ColumnData): { chars: Int32Array; wideRows: Array<[number, number]> | undefined } {
  const n = data.kind === 'utf8' ? data.valid.length : 0;
  const chars = new Int32Array(n);
  let wideRows: Array<[number, number]> | undefined = [];
  for (let s = 0; s < n; s += CHARS_PAGE_ROWS) {
    const e = Math.min(n, s + CHARS_PAGE_ROWS);
    const len = textScan(data, s, e, { op: 'len' }) as Int32Array;
    chars.set(len, s);
    if (!wideRows) continue;
    const units = textScan(data, s, e, { op: 'units' }) as Int32Array;
    for (let i = 0; i < len.length; i++) {
      if (units[i] === len[i]) continue;
      if (wideRows.length === MAX_WIDE_ROWS) {
        wideRows = undefined;
        break;
      }
      wideRows.push([s + i, units[i]! - len[i]!]);
    }
  }
  return { chars, wideRows };
}
const CHARS_PAGE_ROWS = 4096;

/**
 * The short-row index of a utf8 column (format.ts SHORT_ROLE): per row 0, or k for the row's bytes
 * being `values[k - 1]` (hex); null when the column has more than MAX_SHORT_VALUES distinct short strings.
 */
function shortIndex(data: Extract<ColumnData, { kind: 'utf8' }>): { codes: Uint8Array; values: string[] } | null {
  const { bytes, offsets, valid } = data;
  const n = valid.length;
  const codes = new Uint8Array(n);
  const seen = new Map<string, number>();
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < n; i++) {
    const a = offsets[i]!;
    const b = offsets[i + 1]!;
    if (!valid[i] || b - a > SHORT_BYTES) continue;
    const hex = buf.toString('hex', a, b);
    let k = seen.get(hex);
    if (k === undefined) {
      if (seen.size === MAX_SHORT_VALUES) return null;
      k = seen.size + 1;
      seen.set(hex, k);
    }
    codes[i] = k;
  }
  return { codes, values: [...seen.keys()] };
}

/** One checksum (blockSum) per BLOCK_BYTES of `bytes` (u32 little-endian), what a reader checks a block against. */
function blockTable(bytes: Uint8Array): Uint8Array {
  const table = Buffer.alloc(blockCount(bytes.length) * 4);
  for (let b = 0, at = 0; at < bytes.length; b++, at += BLOCK_BYTES)
    table.writeUInt32LE(blockSum(bytes.subarray(at, Math.min(bytes.length, at + BLOCK_BYTES))), b * 4);
  return table;
}

function bytesOf(a: Typed): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}
