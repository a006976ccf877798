import { readFileSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import type { ColumnarTable, ColumnData } from '../../../schema/columnar.js';
import { utf8Chunks, type ByteSourceStats } from './byteSource.js';
import { defaultWorker, startPart, type PartWorker } from './csvPartThread.js';
import type { PartColumn } from './partColumn.js';
import { CsvRecords, fieldText, ingestReport } from './csvRecords.js';
import { RecordScanner } from './scanner.js';
import { ingestCsvTable, type IngestOptions } from './ingestCsv.js';
import { checkFirstChunk, emptyError, readError } from './ingestErrors.js';
import { joinColumn } from './joinColumns.js';
import { joinIssues } from './joinIssues.js';
import type { IngestReport } from './report.js';
import { MAX_LISTED } from './report.js';
import { splitCandidate } from './splitPoint.js';
import { csvStallMs } from './csvStall.js';

/**
 * Files from this size on are parsed in two parts on two threads (measured in docs/benchmarks.md,
 * "CSV on two cores"): below it, starting the worker costs about what the second core saves.
 */
export const PARTS_MIN_BYTES = 32 * 1024 * 1024;

/**
 * On a host whose load average leaves no idle core, this many bytes (then on to a newline) are
 * parsed on this thread first, and the rest is split only if the cores sat idle meanwhile.
 */
export const PROBE_BYTES = 16 * 1024 * 1024;

/** Idle cores (on average, over the first stretch) that make a second thread worth starting. */
const SPARE_IDLE_CORES = 0.5;

/** What the split asks of the host: its load average, and how idle its cores are over a stretch. */
export interface HostLoad {
  /** The 1-minute load average. */
  loadAverage(): number;
  /** Starts a measure; the function it returns gives the idle cores since (on average), or null when unknown. */
  idleMeter(): () => number | null;
}

/** The host's load: os.loadavg(), and /proc/stat's idle time where there is one (Linux). */
export const HOST_LOAD: HostLoad = {
  loadAverage: () => loadavg()[0],
  idleMeter() {
    const start = cpuTimes();
    return () => {
      const end = cpuTimes();
      if (!start || !end || end.total <= start.total) return null;
      return ((end.idle - start.idle) / (end.total - start.total)) * end.cores;
    };
  },
};

/** The host's CPU time so far (all cores, clock ticks) and its idle part, from /proc/stat; null elsewhere. */
function cpuTimes(): { idle: number; total: number; cores: number } | null {
  try {
    const lines = readFileSync('/proc/stat', 'latin1').split('\n');
    const all = lines[0].trim().split(/\s+/);
    if (all[0] !== 'cpu') return null;
    const ticks = all.slice(1, 9).map(Number);
    if (ticks.some((t) => !Number.isFinite(t))) return null;
    const cores = lines.filter((l) => /^cpu\d/.test(l)).length;
    // idle + iowait: a core waiting on a disk would run a parse thread
    return { idle: ticks[3] + ticks[4], total: ticks.reduce((a, b) => a + b, 0), cores };
  } catch {
    return null;
  }
}

/** Options of {@link ingestCsvInParts}: {@link IngestOptions}, and where the split starts to pay. */
export interface InPartsOptions extends Omit<IngestOptions, 'onProgress'> {
  /** Smallest file parsed in two parts. @default PARTS_MIN_BYTES */
  minPartBytes?: number;
  /** Split even when the host has no idle core (tests; a host whose load average means nothing). @default false */
  splitWhenBusy?: boolean;
  /** The host's load (tests: a busy host with idle cores, or none). @default HOST_LOAD */
  host?: HostLoad;
  /** Bytes parsed before a busy host's idle cores are read. @default PROBE_BYTES */
  probeBytes?: number;
  /** The worker script (tests: a worker that crashes). @default csvPartWorker.js */
  workerUrl?: URL;
  /**
   * Where the second part starts instead of a newline near the middle (tests: every newline of a
   * file, inside quoted fields too). It must follow a newline byte (LF), else the file is read in one part.
   */
  splitAt?: number;
  /**
   * How long the second thread may make no progress before it is stopped and the load fails with
   * DATA_DECODE_FAILED (csvPartThread.ts). @default SBIRTOOLS_CSV_STALL_MS, else 15000
   */
  stallMs?: number;
}

/** The table and report of a CSV read in parts; `parts` is 2 when the split was proven, else 1. */
export interface InPartsResult {
  table: ColumnarTable;
  report: IngestReport;
  parts: 1 | 2;
}

/**
 * Parses a big CSV file on two threads: this one reads the first half, a worker the second, and
 * the halves are joined into the table one pass would build, byte for byte (same types, same
 * dictionary codes in first-seen order, same report). The split is a newline near the middle
 * that looks like a record boundary (splitPoint.ts); it is PROVEN by this thread's parse, which
 * must end the first half exactly at a record's end, outside any quoted field. When it does not
 * (the newline sat inside a multi-line quoted field), this thread reads on to the end and the
 * worker's half is thrown away: the table is still the one-pass table. Small files, one-core hosts
 * and SBIRTOOLS_CSV_PARALLEL=0 take the one-pass path (ingestCsvTable). When the 1-minute load
 * average leaves no idle core, this thread parses a first stretch ({@link PROBE_BYTES}, to a
 * newline) and splits the rest only if a core sat idle meanwhile (/proc/stat), else reads on alone:
 * the load average trails the host by a minute, both ways.
 * @throws {DataError} as {@link ingestCsv}; DATA_DECODE_FAILED when the worker crashes, stops, or
 *   makes no progress for `stallMs`; DATA_UNSUPPORTED for a bad SBIRTOOLS_CSV_STALL_MS.
 * @example const { table } = await ingestCsvInParts('/data/big.csv', { name: 'big' });
 */
export async function ingestCsvInParts(path: string, opts: InPartsOptions = {}): Promise<InPartsResult> {
  const started = performance.now();
  const label = opts.label ?? path;
  const size = await stat(path).then(
    (s) => s.size,
    (err: unknown) => {
      throw readError(err, label);
    },
  );
  const onePass = async (): Promise<InPartsResult> => ({ ...(await ingestCsvTable(path, opts)), parts: 1 });
  const min = opts.minPartBytes ?? PARTS_MIN_BYTES;
  if (size < min || size === 0 || availableParallelism() < 2 || process.env.SBIRTOOLS_CSV_PARALLEL === '0')
    return onePass();
  // a second thread only pays with a core to run on: on a host already busy it adds ~30% CPU and no
  // speed (docs/benchmarks.md, "CSV on two cores" and session 21). A load average that leaves a core
  // splits at once; else a first stretch parsed here measures whether the cores are idle now.
  const host = opts.host ?? HOST_LOAD;
  const atOnce = opts.splitWhenBusy === true || availableParallelism() - host.loadAverage() >= 1;

  const stallMs = opts.stallMs ?? csvStallMs();
  const stats: ByteSourceStats = { totalBytes: 0, replacedInvalidUtf8: 0 };
  const records = new CsvRecords({
    label,
    forceInfer: opts.forceInfer,
    maxDictSize: opts.maxDictSize,
    totalBytes: () => stats.totalBytes,
  });
  const read = async (start: number, end: number) => {
    let first = start === 0;
    for await (const chunk of utf8Chunks(path, stats, undefined, { start, end })) {
      if (first) checkFirstChunk(chunk.data, stats, label);
      first = false;
      records.scanner.push(chunk.data);
    }
  };
  // the table of this thread's parse alone (the split not tried, or not proven)
  const finishedAlone = (): InPartsResult => {
    if (!records.plan) throw emptyError(label);
    const plan = records.plan;
    const table: ColumnarTable = {
      name: opts.name ?? 'award_data',
      numRows: records.rows,
      columns: plan.columns.map((c, i) => column(c.name, records.builders[i].finish())),
    };
    return { table, report: ingestReport(records, plan, stats, records.issues.list(), started), parts: 1 };
  };
  let part: PartWorker | null = null;
  try {
    // the header types both halves (the parse of the first proves it is the header: below)
    const header = await readHeader(path, size, label);
    if (!header) return onePass();
    // where the second part may start: after the bytes this thread has parsed (`from`)
    const splitAfter = async (from: number) =>
      opts.splitAt === undefined
        ? await splitCandidate(path, size, header.length, from)
        : opts.splitAt > from && (await followsNewline(path, opts.splitAt, size))
          ? opts.splitAt
          : null;
    let from = 0;
    let split: number | null = null;
    if (atOnce) split = await splitAfter(0);
    else {
      // a newline: each stretch then holds whole UTF-8 characters, as the split itself does
      const stretch = await newlineAfter(path, opts.probeBytes ?? PROBE_BYTES, size);
      if (stretch === null || size - stretch < min) return onePass();
      const idle = host.idleMeter();
      await read(0, stretch);
      from = stretch;
      const cores = idle();
      if (cores !== null && cores >= SPARE_IDLE_CORES) split = await splitAfter(from);
    }
    if (split === null && from === 0) return onePass();
    if (split === null)
      await read(from, size); // a busy host: this thread reads on, as one pass would
    else {
      part = startPart(
        opts.workerUrl ?? defaultWorker(),
        {
          path,
          start: split,
          end: size,
          header,
          label,
          forceInfer: opts.forceInfer,
          maxDictSize: opts.maxDictSize,
          totalBytes: size,
        },
        stallMs,
      );
      await read(from, split);
      // proven: the first half ends exactly at a record's end, after the header the worker was given
      const proven = records.scanner.atRecordStart() && sameHeader(records.header, header);
      if (!proven) {
        // the split fell inside a quoted field (or the header): this half reads on, as one pass would
        part.stop();
        part = null;
        await read(split, size);
      }
    }
    records.scanner.finish();
  } catch (err) {
    part?.stop();
    throw readError(err, label);
  }
  if (!part) return finishedAlone();
  if (!records.plan) throw emptyError(label);
  const plan = records.plan;
  const name = opts.name ?? 'award_data';

  try {
    // this part's summaries (text columns' sketches: distinctSketch.ts) while the worker makes its own
    const ours = records.builders.map((b) => b.summary());
    const theirs = await part.counts;
    const decisions = records.builders.map((b, i) => b.decide([ours[i], theirs.summaries[i]]));
    part.encode({ decisions });
    const mine = records.builders.map((b, i) => b.finishPart(decisions[i]));
    records.builders = []; // their arrays live on in `mine` only, each dropped once joined
    const their = await part.columns;
    const table: ColumnarTable = {
      name,
      numRows: records.rows + theirs.rows,
      columns: plan.columns.map((c, i) => {
        const d = decisions[i];
        const data = joinColumn(c.name, [mine[i], their[i]], d.as === 'text' ? d.dictLimit : null);
        // the parts' arrays go as soon as their column is joined: peak memory is one column's parts, not all
        mine[i] = their[i] = EMPTY;
        return column(c.name, data);
      }),
    };
    const joined = {
      rows: records.rows + theirs.rows,
      blankLines: records.blankLines + theirs.blankLines,
      raggedCount: records.raggedCount + theirs.raggedCount,
      raggedRecords: [
        ...records.raggedRecords,
        ...theirs.raggedRecords.map((r) => ({ record: r.record + records.rows, fields: r.fields })),
      ].slice(0, MAX_LISTED),
      scanner: {
        malformedFields: records.scanner.malformedFields + theirs.malformedFields,
        unterminatedQuote: theirs.unterminatedQuote,
      },
    };
    stats.replacedInvalidUtf8 += theirs.replacedInvalidUtf8;
    stats.totalBytes = size;
    const issues = joinIssues(records.issues.list(), theirs.invalidCells, records.rows);
    return { table, report: ingestReport(joined, plan, stats, issues, started), parts: 2 };
  } finally {
    part.stop();
  }
}

/**
 * The fields of the first non-blank record in the file's first 4 MiB, or null (then one pass reads
 * the file). A binary or HTML file is refused here, before a worker starts.
 */
async function readHeader(path: string, size: number, label: string): Promise<string[] | null> {
  let fields: string[] | null = null;
  const scanner = new RecordScanner((buf, starts, ends, flags, n) => {
    if (fields || (n === 1 && starts[0] === ends[0] && flags[0] === 0)) return;
    fields = Array.from({ length: n }, (_, i) => fieldText(buf, starts[i], ends[i], flags[i]));
  });
  const stats: ByteSourceStats = { totalBytes: 0, replacedInvalidUtf8: 0 };
  for await (const chunk of utf8Chunks(path, stats, undefined, { start: 0, end: Math.min(size, 1 << 22) })) {
    if (!fields) checkFirstChunk(chunk.data, stats, label);
    scanner.push(chunk.data);
    if (fields) break;
  }
  return fields;
}

/**
 * The offset right after the first LF at or after byte `at` (within 1 MiB), or null: where a first
 * stretch of the file may end without cutting a UTF-8 character (a record need not end there).
 */
async function newlineAfter(path: string, at: number, size: number): Promise<number | null> {
  if (at >= size) return null;
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(Math.min(1 << 20, size - at));
    const { bytesRead } = await fh.read(buf, 0, buf.length, at);
    const lf = buf.subarray(0, bytesRead).indexOf(0x0a);
    return lf < 0 || at + lf + 1 >= size ? null : at + lf + 1;
  } finally {
    await fh.close();
  }
}

/** True when byte `at - 1` of the file is LF (a split after it never cuts a UTF-8 character). */
async function followsNewline(path: string, at: number, size: number): Promise<boolean> {
  if (!(Number.isInteger(at) && at > 0 && at < size)) return false;
  const fh = await open(path, 'r');
  try {
    const b = Buffer.alloc(1);
    await fh.read(b, 0, 1, at - 1);
    return b[0] === 0x0a;
  } finally {
    await fh.close();
  }
}

function sameHeader(a: string[] | null, b: string[]): boolean {
  return a !== null && a.length === b.length && a.every((x, i) => x === b[i]);
}

const EMPTY: PartColumn = { kind: 'bool', type: 'boolean', values: new Uint8Array(0), valid: new Uint8Array(0) };

function column(name: string, data: ColumnData): ColumnarTable['columns'][number] {
  return { name, type: data.type, kind: data.kind, data };
}
