import { closeSync, fstatSync, openSync, statSync, unlinkSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { ColumnData, TextScanRequest } from '../../../schema/columnar.js';
import { textScan } from '../columns/textScan.js';
import { DataError } from '../errors.js';
import { badBlock, blockCheck, readInto, type BlockCheck } from './blocks.js';
import { crc32 } from './crc32.js';
import { scanPages, warmScanHelpers } from './scanPages.js';
import { readWindow, WINDOW_MAX_ROWS, windowOfColumn } from './rowWindow.js';
import {
  BLOCK_BYTES,
  blockCount,
  CACHE_MAGIC,
  CACHE_VERSION,
  CacheHeaderSchema,
  CHARS_ROLE,
  PREFIX_BYTES,
  SHORT_BYTES,
  SHORT_ROLE,
  type BufferRef,
  type CacheHeader,
  type ColumnEntry,
} from './format.js';

/** Worker threads a whole-column scan uses at most beside the caller's (textScanPages). */
const MAX_SCAN_HELPERS = 3;

/** Rows of a range read alone from a text column of at least `windowMinBytes` (CacheReader.loadRows). */
const WINDOW_TEXT_ROWS = 128;

/** A cache that opened, or why it did not (then the caller rebuilds it). */
export type CacheOpenResult = { ok: true; reader: CacheReader } | { ok: false; reason: string };

/**
 * Opens a cache file reading only its header: magic, version, header CRC, the source identity
 * `key`, the file's full length and every buffer's bounds are checked. Never throws for a bad
 * file: missing, truncated, corrupt, wrong-magic or old-version caches return `{ ok: false }`.
 * `versions`: the format versions accepted (the current one unless the caller can use no other
 * file, as a data folder that is never rewritten: format.ts READ_VERSIONS).
 * @example const r = openCache(path, key); if (r.ok) r.reader.loadColumn('Award Amount');
 */
export function openCache(path: string, key: string, versions: readonly number[] = [CACHE_VERSION]): CacheOpenResult {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    return { ok: false, reason: `cannot open (${(err as NodeJS.ErrnoException).code ?? err})` };
  }
  try {
    const reason = check(fd, key, versions);
    if (typeof reason === 'string') {
      closeSync(fd);
      return { ok: false, reason };
    }
    return { ok: true, reader: new CacheReader(path, fd, reason.header, reason.version) };
  } catch (err) {
    closeSync(fd);
    return { ok: false, reason: `unreadable (${(err as Error).message})` };
  }
}

function check(
  fd: number,
  key: string,
  versions: readonly number[],
): string | { header: CacheHeader; version: number } {
  const size = fstatSync(fd).size;
  if (size < PREFIX_BYTES) return 'too short';
  const prefix = readExact(fd, 0, PREFIX_BYTES);
  if (!prefix.subarray(0, 8).equals(CACHE_MAGIC)) return 'wrong magic';
  const version = prefix.readUInt32LE(8);
  if (!versions.includes(version)) return `format version ${version}, expected ${CACHE_VERSION}`;
  const length = prefix.readUInt32LE(12);
  if (PREFIX_BYTES + length > size) return 'truncated header';
  const json = readExact(fd, PREFIX_BYTES, length);
  if (crc32(json) !== prefix.readUInt32LE(16)) return 'header checksum mismatch';
  const parsed = CacheHeaderSchema.safeParse(JSON.parse(json.toString('utf8')));
  if (!parsed.success) return 'malformed header';
  const header = parsed.data;
  if (header.key !== key) return 'built from another version of the CSV';
  if (header.fileBytes !== size) return `truncated or padded (${size} bytes, expected ${header.fileBytes})`;
  for (const c of header.columns) {
    const wide = c.wideRows ?? [];
    for (let k = 0; k < wide.length; k++)
      if (wide[k]![0] >= header.numRows || (k > 0 && wide[k]![0] <= wide[k - 1]![0]))
        return `wide rows of column "${c.name}" out of order`;
    for (const ref of Object.values(c.buffers)) {
      if (ref.offset % 8 !== 0 || ref.offset + ref.length > size) return `buffer of column "${c.name}" out of bounds`;
      if (ref.crcs % 8 !== 0 || ref.crcs + blockCount(ref.length) * 4 > size)
        return `block table of column "${c.name}" out of bounds`;
    }
  }
  return { header, version };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const swap32 = (v: number): number =>
  (((v & 0xff) << 24) | ((v & 0xff00) << 8) | ((v >>> 8) & 0xff00) | (v >>> 24)) >>> 0;

function readExact(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  readInto(fd, buf, position);
  return buf;
}

/** Blocks of one-block spans a reader keeps checked (4 MiB): the windows of a first look at every column. */
const RECENT_BLOCKS = 64;

/** An open cache file: columns are read on first use, checked, and memoized. */
export class CacheReader {
  private fd: number | null;
  private readonly memo = new Map<string, ColumnData>();
  /** warmReads ran (once per reader). */
  private readsWarmed = false;
  private readonly byName: Map<string, ColumnEntry>;
  /** Offsets and validity of utf8 columns read by range (loadRows) before any full load. */
  private readonly textIndex = new Map<string, { offsets: Int32Array; valid: Uint8Array; table: Uint32Array }>();
  /** Short-row codes of utf8 columns (textEquals). */
  private readonly shortCodes = new Map<string, Uint8Array>();
  /** Per-row character counts of utf8 columns (textLengths). */
  private readonly chars = new Map<string, Int32Array>();
  /** Dictionary offsets of columns read by window (loadWindow) before any full load. */
  private readonly windowOffsets = new Map<string, Int32Array>();
  /** Block tables read so far, by the file offset of the table (a window reads a buffer's table once, not per window). */
  private readonly tables = new Map<number, Uint32Array>();
  /**
   * Blocks read and checked for a span of one block (the row windows of a first look: `objects()`
   * of the first rows of a filtered table reads four windows of 256 rows of every column, all in
   * the first block of each buffer), by file offset; the oldest goes past RECENT_BLOCKS.
   */
  private readonly recent = new Map<number, Uint8Array>();
  /** Where `loadRows(..., reuse)` reads: grown as needed, kept for the next page. */
  private scratch = new Uint8Array(0);
  /**
   * Text columns with at least this many bytes (32 MiB) are read by range (loadRows) before they
   * are read whole; smaller ones are read whole at once. Every block a range covers is checked
   * against its own checksum before the range is served (format version 2 and later), so a damaged cache is
   * detected, never served as wrong text (docs/threat-model.md). @internal tests set it lower.
   */
  lazyMinBytes = 32 * 1024 * 1024;
  /**
   * A range of at most WINDOW_TEXT_ROWS rows (the guest's window: one row of every column of a
   * sorted table's top row, `head()`) is read alone from text columns of at least this many bytes
   * (1 MiB) too: the offsets and one block cost less than the whole column (Award Title: 9 MB).
   */
  windowMinBytes = 1024 * 1024;
  /**
   * Worker threads that scan pages beside this one in textScanPages: none unless
   * SBIRTOOLS_SCAN_PARALLEL=1, then one fewer than the cores, at most three. Off by default: on the
   * loaded 2-core machine of docs/benchmarks.md (session 14) a helper gave no faster scan (the
   * process's CPU share, not its threads, was the limit) and its start and warm-up cost ~50 ms of
   * CPU beside a session's first runs. @internal tests set it.
   */
  scanHelpers =
    process.env.SBIRTOOLS_SCAN_PARALLEL === '1' ? Math.min(availableParallelism() - 1, MAX_SCAN_HELPERS) : 0;

  /** The file's block checksum (its format version's, blocks.ts blockCheck). */
  private readonly check: BlockCheck;

  /** @param version the file's format version (2 or 3), which says how its blocks are checked. */
  constructor(
    readonly path: string,
    fd: number,
    readonly header: CacheHeader,
    readonly version = CACHE_VERSION,
  ) {
    this.fd = fd;
    this.check = blockCheck(version);
    this.byName = new Map(header.columns.map((c) => [c.name, c]));
  }

  /**
   * One column, read synchronously with positional reads of its own buffers only.
   * @throws {DataError} COLUMN_NOT_FOUND; CACHE_CORRUPT when a checksum fails (the file is then
   * removed, so the next open rebuilds it).
   */
  loadColumn(name: string): ColumnData {
    const hit = this.memo.get(name);
    if (hit) return hit;
    const entry = this.byName.get(name);
    if (!entry) {
      const names = this.header.columns.map((c) => JSON.stringify(c.name)).join(', ');
      throw new DataError(
        'COLUMN_NOT_FOUND',
        `${this.header.name} has no column ${JSON.stringify(name)}. Its columns are: ${names}.`,
      );
    }
    if (this.fd === null)
      throw new DataError(
        'DATA_READ_ERROR',
        `The dataset ${this.header.name} was closed; open it again with openDataset().`,
      );
    const col = this.decode(entry);
    this.memo.set(name, col);
    this.textIndex.delete(name);
    this.windowOffsets.delete(name);
    return col;
  }

  /**
   * Runs the read path once, keeping nothing, so that a session's first column costs its bytes and
   * not the first run of this code (the holder calls it in idle time, runtime/holder/idleWarmUp.ts):
   * the presence bytes of one number column (one byte a row) read and checked against their blocks,
   * then dropped, and one row of the dictionary column with the smallest dictionary. Not a whole
   * column: 1.9 MB of garbage left in this process's heap made the session's first run slower when
   * it was collected during it (docs/benchmarks.md, session 22). Once per reader, and not at all once
   * a column was loaded (the path has run) or the file is closed.
   * @throws {DataError} as loadColumn (CACHE_CORRUPT removes the file, as any read that finds it would).
   */
  warmReads(): void {
    if (this.readsWarmed || this.fd === null) return;
    this.readsWarmed = true;
    if (this.memo.size > 0 || this.header.numRows === 0) return;
    const columns = this.header.columns;
    const number = columns.find((c) => c.kind === 'float64');
    if (number) this.read(number, 'valid');
    const dictBytes = (c: ColumnEntry) => c.buffers['dictOffsets']?.length ?? Infinity;
    const dict = columns.filter((c) => c.kind === 'dict').sort((a, b) => dictBytes(a) - dictBytes(b))[0];
    if (dict) this.loadWindow(dict.name, 0, 1);
  }

  /**
   * Rows [start, end) (at most 4096) of a number, date, boolean or dictionary column that is not
   * loaded yet, read alone (rowWindow.ts): `head()` or one row of every column reads kilobytes, not
   * every column whole. A dictionary column comes as the window's strings (utf8). Every byte served
   * was checked against its block's checksum; a column this reader has loaded already is sliced.
   * Returns null when the column is text, the window is larger, the file is closed, or its
   * dictionary entries are spread too wide: the caller loads the column whole.
   * @throws {RangeError} when the range is outside the column; {DataError} as loadColumn.
   */
  loadWindow(name: string, start: number, end: number): ColumnData | null {
    const entry = this.byName.get(name);
    if (!entry || entry.kind === 'utf8') return null;
    const n = this.header.numRows;
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > n || start > end)
      throw new RangeError(`row range [${start}, ${end}) is outside 0..${n}`);
    if (end - start > WINDOW_MAX_ROWS) return null;
    // loaded already (for another session of this process): the window is sliced from it
    const loaded = this.memo.get(name);
    if (loaded) return windowOfColumn(loaded, start, end);
    if (this.fd === null) return null;
    return readWindow(
      entry.kind,
      entry.type,
      {
        bytes: (role, from, to) => this.readSpan(entry, role, from, to),
        dictOffsets: () => this.dictOffsetsOf(entry),
        length: (role) => entry.buffers[role]?.length ?? this.corrupt(name, `no ${role} buffer`),
        corrupt: (what) => this.corrupt(name, what),
      },
      start,
      end,
    );
  }

  /**
   * Rows [start, end) of a utf8 column that is not loaded yet, read alone (offsets rebased to 0):
   * a page of long text costs its own bytes, not the column's. The column's offsets and validity
   * are read (and checked) once; the text bytes of a range are read in whole blocks, each checked
   * against its checksum before anything is returned. With `reuse`, the returned bytes are a view of
   * a buffer the next `loadRows(..., true)` overwrites (a scan that reads page after page then
   * allocates nothing per page); without it they are the caller's own. Returns null when the column
   * is already loaded, is not utf8, holds less than `lazyMinBytes` of text (`windowMinBytes` for a
   * range of at most WINDOW_TEXT_ROWS rows), the range is every row, or the file is closed: the
   * caller loads the column (checked) and slices it.
   * @throws {RangeError} when the range is outside the column; {DataError} as loadColumn.
   */
  loadRows(name: string, start: number, end: number, reuse = false): Extract<ColumnData, { kind: 'utf8' }> | null {
    if (this.memo.has(name) || this.fd === null) return null;
    // the whole column is read whole, checksum and all
    if (start === 0 && end === this.header.numRows) return null;
    const entry = this.byName.get(name);
    const ref = entry?.buffers.bytes;
    if (!entry || entry.kind !== 'utf8' || !ref) return null;
    const window = end - start <= WINDOW_TEXT_ROWS && ref.length >= this.windowMinBytes;
    if (ref.length < this.lazyMinBytes && !window) return null;
    const index = this.textIndexOf(entry, ref);
    const n = index.valid.length;
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > n || start > end)
      throw new RangeError(`row range [${start}, ${end}) is outside 0..${n}`);
    const from = index.offsets[start]!;
    const to = index.offsets[end]!;
    if (from < 0 || to < from || to > ref.length) this.corrupt(name, 'offsets outside the text bytes');
    // whole blocks around the range, each checked before any byte of it is served
    const bytes = this.readSpan(entry, 'bytes', from, to, { reuse, table: index.table });
    const offsets = new Int32Array(end - start + 1);
    for (let i = 0; i <= end - start; i++) offsets[i] = index.offsets[start + i]! - from;
    return { kind: 'utf8', type: 'string', bytes, offsets, valid: index.valid.slice(start, end) };
  }

  /**
   * A contains or an equals (textScan) over every row of a utf8 column that is not loaded yet, page
   * by page (`pageRows` rows a page), on this thread and `scanHelpers` worker threads
   * (scanPages.ts): each page is read in whole blocks, each block checked against its checksum before
   * it is scanned; a page no thread answered is read here with loadRows, so damage is reported as
   * loadRows reports it (CACHE_CORRUPT). Returns per page its answer, or null for a page textScan
   * leaves to the guest; null (no pages) when loadRows would return null for a page (the column is
   * loaded, not utf8, shorter than `lazyMinBytes`, the file is closed) or the request is a length.
   * @throws {DataError} CACHE_CORRUPT as loadRows.
   * @example reader.textScanPages('Abstract', { op: 'contains', needle: 'laser', fold: 'none' }, 4096);
   */
  textScanPages(name: string, req: TextScanRequest, pageRows: number): (Uint8Array | null)[] | null {
    if (req.op !== 'contains' && req.op !== 'equals') return null;
    if (!Number.isInteger(pageRows) || pageRows < 1 || pageRows >= this.header.numRows) return null;
    if (this.memo.has(name) || this.fd === null) return null;
    const entry = this.byName.get(name);
    const ref = entry?.buffers.bytes;
    if (!entry || entry.kind !== 'utf8' || !ref || ref.length < this.lazyMinBytes) return null;
    const index = this.textIndexOf(entry, ref);
    const pages = scanPages(
      {
        fd: this.fd,
        offset: ref.offset,
        length: ref.length,
        ...index,
        version: this.version,
        numRows: index.valid.length,
        pageRows,
      },
      req,
      this.scanHelpers,
    );
    return pages.map((page, p) => {
      if (page !== undefined) return page;
      const start = p * pageRows;
      const end = Math.min(index.valid.length, start + pageRows);
      const rows = this.loadRows(name, start, end, true);
      if (!rows) this.corrupt(name, `page ${p} could not be read`);
      return textScan(rows, 0, end - start, req) as Uint8Array | null;
    });
  }

  /**
   * Starts textScanPages' helper threads now, when the file has a text column it would scan that
   * way, so the first scan does not pay their start (scanPages.ts warmScanHelpers). Never throws.
   * @example reader.warmScan();
   */
  warmScan(): void {
    if (this.scanHelpers < 1 || this.fd === null) return;
    const long = this.header.columns.some(
      (c) => c.kind === 'utf8' && (c.buffers.bytes?.length ?? 0) >= this.lazyMinBytes && !this.memo.has(c.name),
    );
    if (long) warmScanHelpers(this.scanHelpers);
  }

  /**
   * Characters (code points) per row of rows [start, end) of a utf8 column, -1 for a null row: what
   * textScan's `len` answers, read from the cache's per-row counts (4 bytes a row, checked) instead
   * of the text. Null when the column has no counts (not utf8) or the file is closed.
   * @throws {RangeError} when the range is outside the column; {DataError} CACHE_CORRUPT.
   */
  textLengths(name: string, start: number, end: number): Int32Array | null {
    let counts = this.chars.get(name);
    if (!counts) {
      const entry = this.byName.get(name);
      if (!entry || entry.kind !== 'utf8' || !entry.buffers[CHARS_ROLE] || this.fd === null) return null;
      counts = new Int32Array(this.read(entry, CHARS_ROLE));
      if (counts.length !== this.header.numRows) this.corrupt(name, `${counts.length} character counts`);
      this.chars.set(name, counts);
    }
    const n = counts.length;
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > n || start > end)
      throw new RangeError(`row range [${start}, ${end}) is outside 0..${n}`);
    return counts.slice(start, end);
  }

  /**
   * UTF-16 code units per row of rows [start, end) of a utf8 column, -1 for a null row: what
   * textScan's `units` answers, from the per-row character counts plus the header's `wideRows`
   * (format.ts). Null when the cache cannot prove them without the text: no counts, a cache written
   * before `wideRows`, or a column with more such rows than it lists (the caller reads the bytes).
   * @throws {RangeError} when the range is outside the column; {DataError} CACHE_CORRUPT.
   */
  textUnits(name: string, start: number, end: number): Int32Array | null {
    const wide = this.byName.get(name)?.wideRows;
    if (!wide) return null;
    const out = this.textLengths(name, start, end);
    if (!out) return null;
    // the first listed row at or after start (the list is in row order)
    let lo = 0;
    let hi = wide.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (wide[mid]![0] < start) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < wide.length && wide[k]![0] < end; k++) {
      const [row, extra] = wide[k]!;
      if (out[row - start]! < 0) this.corrupt(name, `wide row ${row} is null`);
      out[row - start] = out[row - start]! + extra;
    }
    return out;
  }

  /**
   * Whether each row of rows [start, end) of a utf8 column is exactly `needle` once decoded (1),
   * not (0), or null (2): what textScan's `equals` answers, from the cache's short-row index
   * (format.ts SHORT_ROLE, 1 byte a row) and character counts instead of the text. A row that
   * decodes to the needle is never longer than the needle's UTF-8 bytes (an invalid byte decodes to
   * U+FFFD, 3 bytes), so a needle of at most SHORT_BYTES bytes can only equal rows the index holds;
   * each of its strings is decoded and compared once. Null when the column has no index or the
   * needle is longer: the caller reads the bytes.
   * @throws {RangeError} when the range is outside the column; {DataError} CACHE_CORRUPT.
   */
  textEquals(name: string, start: number, end: number, needle: string): Uint8Array | null {
    const values = this.byName.get(name)?.shortValues;
    if (!values || Buffer.byteLength(needle, 'utf8') > SHORT_BYTES) return null;
    let codes = this.shortCodes.get(name);
    if (!codes) {
      const entry = this.byName.get(name)!;
      if (!entry.buffers[SHORT_ROLE] || this.fd === null) return null;
      codes = new Uint8Array(this.read(entry, SHORT_ROLE));
      if (codes.length !== this.header.numRows) this.corrupt(name, `${codes.length} short-row codes`);
      for (let i = 0; i < codes.length; i++) if (codes[i]! > values.length) this.corrupt(name, 'short-row code');
      this.shortCodes.set(name, codes);
    }
    const lengths = this.textLengths(name, start, end);
    if (!lengths) return null;
    const hit = new Uint8Array(values.length + 1);
    for (let k = 0; k < values.length; k++)
      hit[k + 1] = Buffer.from(values[k]!, 'hex').toString('utf8') === needle ? 1 : 0;
    const out = new Uint8Array(end - start);
    for (let i = start; i < end; i++) out[i - start] = lengths[i - start]! < 0 ? 2 : hit[codes[i]!]!;
    return out;
  }

  /** Closes the file; columns already loaded stay usable. Idempotent. */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private decode(entry: ColumnEntry): ColumnData {
    const n = this.header.numRows;
    const b = (role: string) => this.read(entry, role);
    let col: ColumnData;
    if (entry.kind === 'float64')
      col = {
        kind: 'float64',
        type: entry.type as 'number',
        values: new Float64Array(b('values')),
        valid: new Uint8Array(b('valid')),
      };
    else if (entry.kind === 'bool')
      col = { kind: 'bool', type: 'boolean', values: new Uint8Array(b('values')), valid: new Uint8Array(b('valid')) };
    else if (entry.kind === 'utf8')
      col = {
        kind: 'utf8',
        type: 'string',
        bytes: new Uint8Array(b('bytes')),
        offsets: new Int32Array(b('offsets')),
        valid: new Uint8Array(b('valid')),
      };
    else
      col = {
        kind: 'dict',
        type: 'string',
        codes: new Int32Array(b('codes')),
        dictBytes: new Uint8Array(b('dictBytes')),
        dictOffsets: new Int32Array(b('dictOffsets')),
      };
    const rows =
      col.kind === 'dict' ? col.codes.length : col.kind === 'utf8' ? col.offsets.length - 1 : col.values.length;
    if (rows !== n) this.corrupt(entry.name, `${rows} rows instead of ${n}`);
    return col;
  }

  private read(entry: ColumnEntry, role: string): ArrayBuffer {
    const ref: BufferRef | undefined = entry.buffers[role];
    if (!ref) this.corrupt(entry.name, `no ${role} buffer`);
    const ab = new ArrayBuffer(ref.length);
    readInto(this.fd!, new Uint8Array(ab), ref.offset);
    this.verify(entry.name, role, new Uint8Array(ab), 0, this.blockTable(ref));
    const unit =
      role === 'values' && entry.kind === 'float64'
        ? 8
        : role === 'offsets' || role === 'codes' || role === 'dictOffsets' || role === CHARS_ROLE
          ? 4
          : 1;
    if (ref.length % unit !== 0) this.corrupt(entry.name, `${role} length ${ref.length}`);
    return ab;
  }

  /**
   * Bytes [from, to) of one buffer, read in whole blocks each checked before anything is returned:
   * a fresh copy, or with `reuse` a view of the scratch buffer the next such read overwrites;
   * `table` is the buffer's block table when the caller keeps it.
   */
  private readSpan(
    entry: ColumnEntry,
    role: string,
    from: number,
    to: number,
    opts: { reuse?: boolean; table?: Uint32Array } = {},
  ): Uint8Array {
    const ref: BufferRef | undefined = entry.buffers[role];
    if (!ref) this.corrupt(entry.name, `no ${role} buffer`);
    if (from < 0 || to < from || to > ref.length)
      this.corrupt(entry.name, `${role} bytes ${from}..${to} outside its buffer`);
    const first = Math.floor(from / BLOCK_BYTES);
    const blockStart = first * BLOCK_BYTES;
    const blockEnd = to === from ? blockStart : Math.min(ref.length, Math.ceil(to / BLOCK_BYTES) * BLOCK_BYTES);
    const span = blockEnd - blockStart;
    const at = from - blockStart;
    if (!opts.reuse && span > 0 && span <= BLOCK_BYTES) {
      const block = this.checkedBlock(entry.name, role, ref, first, span, opts.table);
      return block.slice(at, at + to - from);
    }
    let target: Uint8Array;
    if (opts.reuse) {
      if (this.scratch.length < span) this.scratch = new Uint8Array(Math.max(span, this.scratch.length * 2));
      target = this.scratch.subarray(0, span);
    } else target = new Uint8Array(span);
    readInto(this.fd!, target, ref.offset + blockStart);
    this.verify(entry.name, role, target, first, opts.table ?? this.blockTable(ref));
    return opts.reuse ? target.subarray(at, at + to - from) : target.slice(at, at + to - from);
  }

  /** Block `b` (`span` bytes) of a buffer, read and checked once while it is among the RECENT_BLOCKS last read. */
  private checkedBlock(
    column: string,
    role: string,
    ref: BufferRef,
    b: number,
    span: number,
    table: Uint32Array | undefined,
  ): Uint8Array {
    const key = ref.offset + b * BLOCK_BYTES;
    const hit = this.recent.get(key);
    if (hit !== undefined && hit.length === span) return hit;
    const block = new Uint8Array(span);
    readInto(this.fd!, block, key);
    this.verify(column, role, block, b, table ?? this.blockTable(ref));
    this.recent.set(key, block);
    if (this.recent.size > RECENT_BLOCKS) this.recent.delete(this.recent.keys().next().value!);
    return block;
  }

  /** The offsets, validity and bytes block table of a utf8 column, read and checked once (kept until it is loaded whole). */
  private textIndexOf(
    entry: ColumnEntry,
    ref: BufferRef,
  ): { offsets: Int32Array; valid: Uint8Array; table: Uint32Array } {
    let index = this.textIndex.get(entry.name);
    if (!index) {
      index = {
        offsets: new Int32Array(this.read(entry, 'offsets')),
        valid: new Uint8Array(this.read(entry, 'valid')),
        table: this.blockTable(ref),
      };
      if (index.valid.length !== this.header.numRows || index.offsets.length !== this.header.numRows + 1)
        this.corrupt(entry.name, 'index length');
      this.textIndex.set(entry.name, index);
    }
    return index;
  }

  /** A dictionary column's entry offsets for windows (kept until it is loaded whole); null past 8 MiB. */
  private dictOffsetsOf(entry: ColumnEntry): Int32Array | null {
    let offsets = this.windowOffsets.get(entry.name);
    if (offsets) return offsets;
    const ref = entry.buffers.dictOffsets;
    if (!ref || ref.length > 8 * 1024 * 1024) return null;
    offsets = new Int32Array(this.read(entry, 'dictOffsets'));
    if (offsets.length < 1) this.corrupt(entry.name, 'an empty dictionary offset table');
    this.windowOffsets.set(entry.name, offsets);
    return offsets;
  }

  /** The block table of a buffer: one checksum per BLOCK_BYTES (format.ts). */
  private blockTable(ref: BufferRef): Uint32Array {
    const kept = this.tables.get(ref.crcs);
    if (kept !== undefined) return kept;
    const table = new Uint32Array(blockCount(ref.length));
    readInto(this.fd!, new Uint8Array(table.buffer), ref.crcs);
    // the file is little-endian; so is every platform Node ships for but s390x
    if (!LITTLE_ENDIAN) for (let i = 0; i < table.length; i++) table[i] = swap32(table[i]!);
    this.tables.set(ref.crcs, table);
    return table;
  }

  /** Checks `bytes`, which start at block `first` of the buffer and end on a block boundary or at the buffer's end. */
  private verify(column: string, role: string, bytes: Uint8Array, first: number, table: Uint32Array): void {
    const b = badBlock(bytes, first, table, this.check);
    if (b >= 0) this.corrupt(column, `${role} checksum mismatch in block ${b}`);
  }

  private corrupt(column: string, what: string): never {
    // remove the bad file (only if it is still the one we opened) so the next open rebuilds it
    try {
      if (this.fd !== null && statSync(this.path).ino === fstatSync(this.fd).ino) unlinkSync(this.path);
    } catch {
      // already gone or replaced: nothing to remove
    }
    throw new DataError(
      'CACHE_CORRUPT',
      `The data cache ${this.path} is corrupt (column "${column}": ${what}). It was removed; open the dataset again to rebuild it from the CSV.`,
    );
  }
}
