import { closeSync, fstatSync, openSync } from 'node:fs';
import type { ColumnData, ColumnMeta, TableMeta } from '../../../../schema/columnar.js';
import { DataError, type DataErrorCode } from '../../errors.js';
import { checkDateRange } from '../checkDateRange.js';
import { capHint, DEFAULT_DECODE_CAPS, type DecodeCaps } from '../decodeCaps.js';
import type { ColumnAnswer, ColumnJob, OpenedFile } from './columnJob.js';
import { columnWorkers, type Posted } from './columnWorkers.js';
import { joinColumns } from './joinColumns.js';
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
  // every worker checks the file itself (its footer and page headers, read from disk) and keeps
  // its footer; the table is open once one has passed the checks, whichever is first (the workers
  // start while the holder makes the isolate, and either may get a core first): the others finish
  // meanwhile, in order before their first column job (a worker whose check failed answers that
  // job `reopen`). When none passes, the first worker's failure is the error (the same checks fail
  // alike in every worker; the order keeps the error independent of timing).
  const answers = Array.from({ length: openingWorkers(pool.width, size, options.format, splitMin) }, (_, i) =>
    pool.answer(pool.post(i, open, caps.heapMb), file, caps),
  );
  answers.forEach((a) => a.catch(() => undefined));
  let opened: OpenedFile;
  try {
    const passed = await Promise.any(answers.map((a) => a.then((x) => (x.ok ? x : Promise.reject(x))))).catch(
      () => undefined,
    );
    opened = (passed ?? expect(await answers[0], file)).opened!;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
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
    const data = asTableMemory(() => decodeColumn(id, open, opened, leaf, file, caps, splitMin, splitMinRows));
    checkDateRange(
      { name, numRows: opened.numRows, columns: [{ name: column, type: data.type, kind: data.kind, data }] },
      file,
    );
    kinds.set(column, data.kind);
    return data;
  };
  const loadColumn = (column: string): ColumnData => {
    let data = loaded.get(column);
    if (!data) loaded.set(column, (data = decode(column)));
    return data;
  };
  // a column copied whole into an isolate lives there: this table forgets it (decoding it again,
  // with the same checks, on a later need) rather than hold a second copy for as long as it lives
  const takeColumn = (column: string): ColumnData => {
    const data = loaded.get(column) ?? decode(column);
    loaded.delete(column);
    releaseTableMemory(bytesOf(data));
    return data;
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
  };
}

/**
 * How many column workers a table file is checked in when it opens (and started for, first thing,
 * by the session: tableProviders.ts): all of them (`width`) for a Parquet file large enough that
 * a column may be split between them; one for a smaller one, or an Arrow file, whose columns are
 * each written by one worker whole. A second worker costs a thread start (~40-80 ms of CPU, on
 * the cores the holder is making the isolate on) and ~25 MB; a column that does split later starts it then.
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

/** Decodes one leaf: on both workers in halves of its row groups when it is large enough, else on one. */
function decodeColumn(
  id: number,
  open: ColumnJob,
  opened: OpenedFile,
  leaf: number,
  file: string,
  caps: DecodeCaps,
  splitMin: number,
  splitMinRows: number,
): ColumnData {
  const pool = columnWorkers(caps.heapMb);
  const groups = opened.groupRows.length;
  const stored = opened.groupBytes.reduce((n, g) => n + g[leaf], 0);
  const ranges: Array<[number, number]> =
    pool.width > 1 && groups >= 2 && (stored >= splitMin || opened.numRows >= splitMinRows)
      ? halves(opened, leaf)
      : [[0, groups]];
  let answers = run(id, open, leaf, ranges, file, caps);
  // a column the columnar decoder leaves to hyparquet is decoded whole, on one worker
  if (answers.some((a) => !a.ok && a.whole)) answers = run(id, open, leaf, [[0, groups]], file, caps);
  try {
    return joinColumns(answers.map((a) => expect(a, file).column!));
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    throw new DataError(
      'DATA_TOO_LARGE',
      `${file}: column '${opened.columns[leaf].name}' holds more than 2 GiB of text`,
      {
        hint: 'Split the file into smaller tables (fewer rows each), or drop the long text column.',
      },
    );
  }
}

/** Posts one job per range (worker i gets range i), opening the file first in a worker that does not know it. */
function run(
  id: number,
  open: ColumnJob,
  leaf: number,
  ranges: Array<[number, number]>,
  file: string,
  caps: DecodeCaps,
): ColumnAnswer[] {
  const pool = columnWorkers(caps.heapMb);
  const posted: Posted[] = [];
  try {
    ranges.forEach(([from, to], i) => {
      // a worker started after the table was opened (the last one died) checks the file again first
      if (!pool.knows(i, id)) posted.push(pool.post(i, open, caps.heapMb));
      posted.push(pool.post(i, { op: 'column', id, leaf, from, to }, caps.heapMb));
    });
    const answers: ColumnAnswer[] = [];
    for (const p of posted) {
      const a = pool.wait(p, file, caps);
      if (a.ok && a.opened) continue;
      answers.push(a);
    }
    return answers;
  } finally {
    for (const p of posted) p.port.close();
  }
}

/** Row groups [0, k) and [k, n), k chosen so both halves hold about the same stored bytes of the leaf. */
function halves(opened: OpenedFile, leaf: number): Array<[number, number]> {
  const n = opened.groupBytes.length;
  const total = opened.groupBytes.reduce((s, g) => s + g[leaf], 0);
  let k = 0;
  let acc = 0;
  while (k < n - 1 && acc + opened.groupBytes[k][leaf] <= total / 2) acc += opened.groupBytes[k++][leaf];
  k = Math.min(Math.max(k, 1), n - 1);
  return [
    [0, k],
    [k, n],
  ];
}

function expect(a: ColumnAnswer, file: string): Extract<ColumnAnswer, { ok: true }> {
  if (a.ok) return a;
  const e = a.error ?? { code: 'DATA_DECODE_FAILED', message: `${file}: the column decoder lost the file` };
  throw new DataError(e.code as DataErrorCode, e.message, e.hint ? { hint: e.hint } : {});
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
