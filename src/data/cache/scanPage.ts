import type { TextScanRequest } from '../../../schema/columnar.js';
import { searchArea } from '../columns/simdBytes.js';
import { textScan } from '../columns/textScan.js';
import { BLOCK_BYTES, badBlock, blockCheck, readInto } from './blocks.js';

/** A utf8 column of an open cache file as a scan reads it, page by page (any thread of the process). */
export interface ScanColumn {
  /** The cache file, open for reading (a descriptor is the process's: a worker thread reads it too). */
  fd: number;
  /** Where the column's text bytes start in the file, and how many there are. */
  offset: number;
  length: number;
  /** The bytes buffer's block table (one checksum per BLOCK_BYTES). */
  table: Uint32Array;
  /** The cache file's format version, which says the checksum (blocks.ts blockCheck). */
  version: number;
  /** The column's row offsets (numRows + 1) and validity, both checked already. */
  offsets: Int32Array;
  valid: Uint8Array;
  numRows: number;
  pageRows: number;
}

/** What became of one page: answered into `out`, answered null by textScan, or a block failed its checksum. */
export type PageOutcome = 'ok' | 'null' | 'bad';

/** Blocks read then checked at a time: the check runs on bytes still in the core's cache. */
const CHUNK_BYTES = 4 * BLOCK_BYTES;

/**
 * textScan of page `p` of `col` (rows [p * pageRows, ...), a contains or an equals), its answer
 * written at the page's rows of `out`. The page's whole blocks are read straight into the SIMD
 * search's memory (simdBytes.ts searchArea; without WebAssembly SIMD into `scratch.buf`, grown as
 * needed and reused by the next page) a few at a time, each checked against its checksum before any
 * byte is scanned: exactly what CacheReader.loadRows then textScan answer, without the copies.
 * @throws {Error} when the file cannot be read (the caller reads the page again its own way).
 * @example scanPage(col, 3, { op: 'contains', needle: 'laser', fold: 'none' }, { buf: new Uint8Array(0) }, out);
 */
export function scanPage(
  col: ScanColumn,
  p: number,
  req: TextScanRequest,
  scratch: { buf: Uint8Array },
  out: Uint8Array,
): PageOutcome {
  const start = p * col.pageRows;
  const end = Math.min(col.numRows, start + col.pageRows);
  const from = col.offsets[start]!;
  const to = col.offsets[end]!;
  if (from < 0 || to < from || to > col.length) return 'bad';
  const first = Math.floor(from / BLOCK_BYTES);
  const blockStart = first * BLOCK_BYTES;
  const blockEnd = to === from ? blockStart : Math.min(col.length, Math.ceil(to / BLOCK_BYTES) * BLOCK_BYTES);
  const span = blockEnd - blockStart;
  // straight into the SIMD search's memory when there is one (no copy of the page into it)
  let buf = searchArea(span);
  if (!buf) {
    if (scratch.buf.length < span) scratch.buf = new Uint8Array(Math.max(span, scratch.buf.length * 2));
    buf = scratch.buf;
  }
  const check = blockCheck(col.version);
  for (let at = 0; at < span; at += CHUNK_BYTES) {
    const chunk = buf.subarray(at, Math.min(span, at + CHUNK_BYTES));
    readInto(col.fd, chunk, col.offset + blockStart + at);
    if (badBlock(chunk, first + at / BLOCK_BYTES, col.table, check) >= 0) return 'bad';
  }
  const offsets = relativeOffsets(col.offsets, start, end, from);
  const answer = textScan(
    {
      kind: 'utf8',
      type: 'string',
      bytes: buf.subarray(from - blockStart, to - blockStart),
      offsets,
      valid: col.valid.subarray(start, end),
    },
    0,
    end - start,
    req,
  );
  if (!answer) return 'null';
  out.set(answer, start);
  return 'ok';
}

/** Row bounds [start, end] less `from` (a loop of its own: see textScan.ts nullCodes). */
function relativeOffsets(offsets: Int32Array, start: number, end: number, from: number): Int32Array {
  const out = new Int32Array(end - start + 1);
  for (let i = 0; i <= end - start; i++) out[i] = offsets[start + i]! - from;
  return out;
}
