import { closeSync, fstatSync, openSync } from 'node:fs';
import type { ColumnData, ColumnMeta, TableMeta } from '../../../../schema/columnar.js';
import { DataError } from '../../errors.js';
import { checkDateRange } from '../checkDateRange.js';
import { capHint, DEFAULT_DECODE_CAPS, type DecodeCaps } from '../decodeCaps.js';
import type { ColumnJob, OpenedFile } from './columnJob.js';
import { columnWorkers } from './columnWorkers.js';
import { collectColumn, decodeColumn, expectAnswer, postColumn, type LeafDecode } from './decodeColumn.js';
import { asTableMemory, releaseTableMemory } from './tableMemory.js';

/** A column of this many stored bytes or more, in two or more row groups, is decoded on two cores. */
const SPLIT_MIN_BYTES = 2 * 1024 * 1024;
/**
 * A column of a table with this many rows or more is decoded on two cores whatever its stored
 * size: a dictionary-coded column of few distinct values is small on disk, but its decode still
 * costs a pass per row (5M rows of a category: ~115 ms on one core).
 */
const SPLIT_MIN_ROWS = 1 << 20;

/** How openLazyParquet splits columns; for tests. */
export interface LazyParquetOptions {
  /** A column with at least this many stored bytes (and two row groups) is decoded in two halves. @default 2 MiB */
  splitMinBytes?: number;
  /** A column of a table with at least this many rows (and two row groups) is decoded in two halves, whatever its size. @default 2^20 */
  splitMinRows?: number;
  /** 'arrow': an Arrow IPC file or stream, each column written from its buffers when first asked (arrowColumnar/lazyArrow.ts). @default 'parquet' */
  format?: 'parquet' | 'arrow';
}

/** A table whose columns are decoded when first asked for (the holder's TableProvider shape). */
export interface LazyTable {
  meta: TableMeta;
  /** The column, decoded on the first call (synchronously, in the column workers) and kept. */
  loadColumn(name: string): ColumnData;
  /** The column, not kept (forgotten if it was): for a caller that keeps its own copy; a later call decodes it again. */
  takeColumn(name: string): ColumnData;
  /** The column's transfer kind: a text column's (`dict` or `utf8`) is known once it is decoded. */
  columnKind(name: string): ColumnData['kind'];
  /**
   * Decodes the named columns not decoded yet, never taken by an isolate and never decoded ahead
   * for nothing (names that are not columns are ignored) all at once, before a run that names them starts: their jobs go to both workers together, and one is
   * joined while the workers decode the next. Waits at most `withinMs` per job; a column that
   * fails is left for the run's first touch, which decodes it again and reports why.
   */
  prefetch(names: readonly string[], withinMs: number): void;
  /** Forgets the prefetched columns no run has asked for since (a name in the code that no call read). */
  releasePrefetched(): void;
}

let nextId = 1;

/**
 * Opens a Parquet table file for lazy decoding: the file stays on disk (an open descriptor the
 * column workers read through; it is never held whole in memory), and its footer, schema and every
 * page header are checked in a column worker (columnWorkers.ts) before this resolves, so a file
 * refused by a check fails here as it did when every column was decoded at load. A column is then
 * decoded the first time a run touches it: only its column chunks are read, only the columns a run
 * reads are ever inflated, a large column on both cores (its row groups in two halves, joined:
 * joinColumns.ts), under the same caps (page and file inflate caps, the decode heap, the
 * deadline). A text column's kind (dictionary codes or UTF-8) is only known once decoded: its meta
 * says `utf8` with `kindPending` until then.
 * @throws {DataError} DATA_TOO_LARGE, DATA_CORRUPT, DATA_UNSUPPORTED, DATA_SCHEMA_MISMATCH (opening);
 *   loadColumn: DATA_CORRUPT, DATA_TOO_LARGE, DATA_OUT_OF_RANGE, DATA_DECODE_FAILED.
 * @example const t = await openLazyParquet('t', '/data/t.parquet', 't.parquet'); t.loadColumn('Amount');
 */
export async function openLazyParquet(
  name: string,
  path: string,
  file: string,
  caps: DecodeCaps = DEFAULT_DECODE_CAPS,
  options: LazyParquetOptions = {},
): Promise<LazyTable> {
  const splitMin = options.splitMinBytes ?? SPLIT_MIN_BYTES;
  const splitMinRows = options.splitMinRows ?? SPLIT_MIN_ROWS;
  const { fd, size } = openChecked(path, file, caps);
  const stamp = stampOf(fd);
  const pool = columnWorkers(caps.heapMb);
  const id = nextId++;
  // the workers read through the descriptor: a Parquet column's chunks, an Arrow column's buffers
  // (arrowColumnar/lazyArrow.ts); the file is never held whole in memory
  const open: ColumnJob = { op: 'open', id, fd, size, file, caps, format: options.format ?? 'parquet' };
  // one worker checks the file (its footer and every page header, read from disk) and keeps its
  // footer; the others start meanwhile (their threads load while the holder makes the isolate) and
  // open the file when a job first needs them, from the row count that check found: they parse the
  // footer and run its checks, and do not walk the page headers again (columnJob.ts `checkedRows`).
  // A worker started again later (after IDLE_MS, or replacing one that died) opens it the same way.
  pool.start(caps.heapMb, openingWorkers(pool.width, size, options.format, splitMin));
  let opened: OpenedFile;
  try {
    opened = expectAnswer(await pool.answer(pool.post(0, open, caps.heapMb), file, caps), file).opened!;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  const reopen: ColumnJob = { ...open, checkedRows: opened.numRows };
  const columns: ColumnMeta[] = opened.columns.map((c) =>
    c.type === 'string'
      ? { name: c.name, type: c.type, kind: 'utf8', kindPending: true }
      : { name: c.name, type: c.type, kind: c.type === 'boolean' ? 'bool' : 'float64' },
  );
  const index = new Map(opened.columns.map((c, i) => [c.name, i]));
  const loaded = new Map<string, ColumnData>();
  // the kind of every column decoded so far (a text column's is known only then), kept when the column is not
  const kinds = new Map<string, ColumnData['kind']>();
  const decode = (column: string): ColumnData => {
    const leaf = index.get(column);
    if (leaf === undefined)
      throw Object.assign(new Error(`table ${name} has no column ${column}`), { code: 'COLUMN_NOT_FOUND' });
    unchanged(fd, stamp, file);
    // what the process grows by while the run waits here is the table's memory, not the run's
    const data = asTableMemory(() => decodeColumn(leafDecode(leaf)));
    return checked(column, data);
  };
  const leafDecode = (leaf: number): LeafDecode => ({
    id,
    open: reopen,
    opened,
    leaf,
    file,
    caps,
    splitMin,
    splitMinRows,
  });
  const checked = (column: string, data: ColumnData): ColumnData => {
    checkDateRange(
      { name, numRows: opened.numRows, columns: [{ name: column, type: data.type, kind: data.kind, data }] },
      file,
    );
    kinds.set(column, data.kind);
    return data;
  };
  const loadColumn = (column: string): ColumnData => {
    prefetched.delete(column);
    let data = loaded.get(column);
    if (!data) loaded.set(column, (data = decode(column)));
    return data;
  };
  // a column copied whole into an isolate lives there: this table forgets it (decoding it again,
  // with the same checks, on a later need) rather than hold a second copy for as long as it lives
  const takeColumn = (column: string): ColumnData => {
    prefetched.delete(column);
    notAhead.add(column);
    const data = loaded.get(column) ?? decode(column);
    loaded.delete(column);
    releaseTableMemory(bytesOf(data));
    return data;
  };
  // the columns a run names (sessionHost.ts), decoded side by side before it starts
  const prefetched = new Set<string>();
  // never decoded ahead again: a column an isolate has taken (the session that took it keeps it;
  // another session's first touch decodes it, as without prefetch), and one decoded ahead that its
  // run never read (code that names it without reading it would decode it for nothing every run)
  const notAhead = new Set<string>();
  const prefetch = (names: readonly string[], withinMs: number): void => {
    const wanted = [...new Set(names)].filter((c) => index.has(c) && !loaded.has(c) && !notAhead.has(c));
    // one column alone gains nothing here: a large one is split over both workers anyway
    if (wanted.length < 2) return;
    unchanged(fd, stamp, file);
    const deadline = { ...caps, timeoutMs: Math.max(1, Math.min(caps.timeoutMs, withinMs)) };
    asTableMemory(() => {
      // every column posted before any is waited for; a column decoded whole goes to the next worker in turn
      let single = 0;
      const posted = wanted.map((c) => postColumn(leafDecode(index.get(c)!), single++));
      posted.forEach((p, i) => {
        try {
          loaded.set(wanted[i], checked(wanted[i], collectColumn(p, deadline)));
          prefetched.add(wanted[i]);
        } catch {
          // left for the run: its first touch decodes the column again and reports the failure
        }
      });
    });
  };
  const releasePrefetched = (): void => {
    for (const column of prefetched) {
      const data = loaded.get(column);
      loaded.delete(column);
      notAhead.add(column);
      if (data) releaseTableMemory(bytesOf(data));
    }
    prefetched.clear();
  };
  // a column whose type only its values tell (INT64 past 2^53 is exact text) is decoded now
  opened.columns.forEach((c, i) => {
    if (c.settled) return;
    const data = loadColumn(c.name);
    columns[i] = { name: c.name, type: data.type, kind: data.kind };
  });
  return {
    meta: { name, numRows: opened.numRows, columns },
    loadColumn,
    takeColumn,
    columnKind: (column) => kinds.get(column) ?? loadColumn(column).kind,
    prefetch,
    releasePrefetched,
  };
}

/**
 * How many column workers are started when a table file opens (first thing, by the session:
 * tableProviders.ts; the first of them checks the file): all of them (`width`) for a Parquet file
 * large enough that a column may be split between them; one for a smaller one, or an Arrow file,
 * whose columns are each written by one worker whole. A second worker costs a thread start (~40-80
 * ms of CPU, on the cores the holder is making the isolate on) and ~25 MB; a column that does split
 * later starts it then.
 * @example openingWorkers(2, 24_000_000, 'parquet') // 2
 */
export function openingWorkers(
  width: number,
  fileBytes: number,
  format: LazyParquetOptions['format'] = 'parquet',
  splitMinBytes = SPLIT_MIN_BYTES,
): number {
  return format === 'parquet' && fileBytes >= splitMinBytes ? width : 1;
}

/** The bytes of a column's typed arrays. */
function bytesOf(data: ColumnData): number {
  return Object.values(data).reduce((n: number, v) => n + (ArrayBuffer.isView(v) ? v.byteLength : 0), 0);
}

/** The file's size and modification time, as its descriptor sees them. */
function stampOf(fd: number): string {
  const st = fstatSync(fd);
  return `${st.size}:${st.mtimeMs}`;
}

/**
 * Refuses to decode a column of a file rewritten in place since the table was opened (its size or
 * modification time changed): its columns would mix two versions of the file. A file replaced by a
 * new one (written aside, then renamed) is not seen: the descriptor still reads the old one.
 * @throws {DataError} DATA_CORRUPT naming the change and what to do.
 */
function unchanged(fd: number, stamp: string, file: string): void {
  if (stampOf(fd) === stamp) return;
  throw new DataError('DATA_CORRUPT', `${file}: the file changed on disk after the table was opened`, {
    hint: 'Its columns would mix two versions of the file. Start a new session (or sandbox) to read the file as it is now.',
  });
}

/** The file opened for reading, its size checked against the file cap (the descriptor stays open while the table lives). */
function openChecked(path: string, file: string, caps: DecodeCaps): { fd: number; size: number } {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  if (size > caps.maxInputBytes) {
    closeSync(fd);
    throw new DataError(
      'DATA_TOO_LARGE',
      `${file}: ${size} bytes, more than the ${caps.maxInputBytes}-byte limit for a table file`,
      {
        hint: capHint('maxInputBytes', caps, 'Filter or aggregate the data first, or split the file.'),
      },
    );
  }
  return { fd, size };
}
