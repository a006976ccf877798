import { availableParallelism } from 'node:os';
import type { ColumnarTable } from '../../../schema/columnar.js';
import { DataError, type DataErrorCode } from '../errors.js';
import { workerScript } from '../workerScript.js';
import { capHint, DEFAULT_DECODE_CAPS, type DecodeCaps } from './decodeCaps.js';
import type { DecodedFormat } from './decodeTable.js';
import type { TablePart } from './parquetParts.js';
import {
  decodeWorker,
  keepSpare,
  listen,
  returnSpare,
  sparePair,
  warmSpares,
  type DecodeWorker,
} from './spareWorker.js';

/** How long after a decode the spare worker for the next one is started (the second one twice as long). */
const SPARE_DELAY_MS = 500;
/** Parquet files from this size on are decoded in two parts on two warm spares, when two wait (the 200,000-row bench table is 0.86 MB in ZSTD). */
const PARTS_MIN_BYTES = 256 * 1024;
/**
 * Parquet files from this size on are split in two even when no warm spares wait (the first load
 * of a process): two fresh workers each pay their start (~0.2 s) but decode half the columns on
 * their own core, which pays from a few MB on (a 1M-row, 7-column table is ~24 MB in Snappy).
 */
const COLD_PARTS_MIN_BYTES = 8 * 1024 * 1024;
/** After a decode of this many bytes, the spares start later: the first run on the new table has the cores first. */
const LATE_SPARE_DELAY_MS = 3000;
/** Decodes under way in this process: the spare (and its warm-up) never starts while one runs. */
let active = 0;
/** Spares to keep: two once this process has decoded a Parquet file big enough to split. */
let wantedSpares = 1;

interface Answer {
  table?: ColumnarTable & { leaves?: number[] };
  heapUsed?: number;
  error?: { code: DataErrorCode; message: string; hint?: string };
}

/**
 * Decode a Parquet, Arrow, JSON or NDJSON table file in a worker thread with its own heap limit
 * (`resourceLimits`) and a wall-clock deadline. File readers are not hardened: on a hostile file
 * they can allocate without bound, recurse until the stack overflows or spin. Here such a file
 * ends the worker (terminated on overrun) and the caller gets a DataError; the host process, its
 * sessions and its other tables are untouched. Each decode has its own worker (one file per
 * worker, terminated after a failure); a spare worker with the readers loaded is kept ready for
 * the next decode (spareWorker.ts), so the thread start and module compile are off the critical
 * path (about 65 MB of idle memory; SBIRTOOLS_DECODE_SPARE=0 turns spares off). A Parquet file of
 * 256 KiB or more is decoded in two parts on two cores when two warm spares wait (from 8 MiB on, on
 * two fresh workers when they do not): each worker checks the whole file and decodes half of its
 * columns (by size), and the halves are joined here. Once such a file was seen, two spares are kept
 * (SBIRTOOLS_DECODE_PARALLEL=0: one, never in parts); after a file of 8 MiB or more they start 3 s
 * later, so their warm-up does not compete with the first run on the new table.
 * @throws {DataError} the format's codes, DATA_TOO_LARGE (heap overrun), DATA_DECODE_FAILED (deadline, crash).
 * @example const t = await decodeInWorker('portfolio', bytes, 'portfolio.parquet', 'parquet');
 */
export async function decodeInWorker(
  name: string,
  bytes: Uint8Array,
  file: string,
  format: DecodedFormat,
  caps: Partial<DecodeCaps> = {},
): Promise<ColumnarTable> {
  const c: DecodeCaps = { ...DEFAULT_DECODE_CAPS, ...caps };
  if (bytes.byteLength > c.maxInputBytes) {
    throw new DataError(
      'DATA_TOO_LARGE',
      `${file}: ${bytes.byteLength} bytes, more than the ${c.maxInputBytes}-byte limit for a table file`,
      { hint: capHint('maxInputBytes', c, 'Filter or aggregate the data first, or load fewer columns.') },
    );
  }
  const script = workerPath();
  const job = { name, bytes, file, format, caps: c };
  if (format === 'parquet' && bytes.byteLength >= PARTS_MIN_BYTES && process.env.SBIRTOOLS_DECODE_PARALLEL !== '0') {
    wantedSpares = 2;
    const warm = warmSpares() >= 2;
    if (warm || (bytes.byteLength >= COLD_PARTS_MIN_BYTES && availableParallelism() >= 2)) {
      // one copy both workers read (each copies it into its own heap), not a 4 MB clone per message
      const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
      shared.set(bytes);
      const part = (index: number) => ({ ...job, bytes: shared, part: { index, count: 2 } satisfies TablePart });
      const pair = warm
        ? sparePair([part(0), part(1)], c.heapMb)
        : ([decodeWorker(script, part(0), c.heapMb), decodeWorker(script, part(1), c.heapMb)] as const);
      if (pair)
        return joinParts(
          name,
          file,
          await inParts(pair.map((w) => runJob(w, script, file, format, c, bytes.byteLength))),
        );
    }
  }
  const { table } = await runJob(decodeWorker(script, job, c.heapMb), script, file, format, c, bytes.byteLength).answer;
  return table!;
}

/** The answers of all parts; the first failure cancels the others (their workers are terminated). */
async function inParts(jobs: Array<{ answer: Promise<Answer>; cancel: () => void }>): Promise<Answer[]> {
  try {
    return await Promise.all(jobs.map((j) => j.answer));
  } catch (err) {
    for (const j of jobs) j.cancel();
    throw err;
  }
}

/** One table from the parts' columns, in the file's order; every column must come from exactly one part. */
function joinParts(name: string, file: string, parts: Answer[]): ColumnarTable {
  const count = parts.reduce((n, p) => n + p.table!.columns.length, 0);
  const columns = new Array<ColumnarTable['columns'][number] | undefined>(count).fill(undefined);
  let fits = parts.every((p) => p.table!.numRows === parts[0].table!.numRows);
  for (const p of parts) {
    p.table!.leaves!.forEach((leaf, i) => {
      if (!(leaf >= 0 && leaf < count) || columns[leaf] !== undefined) fits = false;
      else columns[leaf] = p.table!.columns[i];
    });
  }
  if (!fits || columns.includes(undefined)) {
    throw new DataError('DATA_DECODE_FAILED', `${file}: the two halves of the decode do not fit together`, {
      hint: 'Decode the file in one worker: set SBIRTOOLS_DECODE_PARALLEL=0, and report this as a bug.',
    });
  }
  return { name, numRows: parts[0].table!.numRows, columns: columns as ColumnarTable['columns'] };
}

/**
 * Run one job on `w`: its answer, or a DataError for a failure, the deadline, a heap overrun or
 * a crash. The worker is terminated unless it is a spare that answered with a table (it then
 * waits for the next file: returnSpare). `cancel` ends the job and its worker (a sibling part failed).
 */
function runJob(
  w: DecodeWorker,
  script: URL,
  file: string,
  format: DecodedFormat,
  c: DecodeCaps,
  size: number,
): { answer: Promise<Answer>; cancel: () => void } {
  const { worker, post, reusable, decodes } = w;
  let cancel = () => undefined as void;
  const answer = new Promise<Answer>((resolve, reject) => {
    let settled = false;
    active++;
    const finish = (fn: () => void, kept = false) => {
      if (settled) return;
      settled = true;
      active--;
      clearTimeout(timer);
      fn();
      if (!kept) void worker.terminate();
      // the next decode's workers start a little after this one ends, not competing with it or
      // with the session that is about to use the table, and one at a time (each warms up on a core)
      for (let n = 1; n <= wantedSpares; n++) {
        const later = () =>
          active === 0 && process.env.SBIRTOOLS_DECODE_SPARE !== '0'
            ? keepSpare(script, DEFAULT_DECODE_CAPS.heapMb, n)
            : undefined;
        setTimeout(later, n * (size >= COLD_PARTS_MIN_BYTES ? LATE_SPARE_DELAY_MS : SPARE_DELAY_MS)).unref();
      }
    };
    cancel = () => finish(() => reject(new DataError('DATA_DECODE_FAILED', `${file}: the decode was cancelled`)));
    const timer = setTimeout(() => {
      finish(() =>
        reject(
          new DataError('DATA_DECODE_FAILED', `${file}: decoding took longer than ${c.timeoutMs} ms and was stopped`, {
            hint: 'The file is too large or crafted to be slow: split it, or load fewer columns.',
          }),
        ),
      );
    }, c.timeoutMs);
    const onMessage = (msg: Answer & { warm?: boolean }) => {
      if (msg.warm) return; // a spare's 'warm-up done', sent just before it got this job
      // a spare that decoded this file cleanly stays warm for the next one (spareWorker.ts)
      const keep = !!msg.table && reusable && process.env.SBIRTOOLS_DECODE_SPARE !== '0';
      if (keep) detach();
      const kept = keep && returnSpare(worker, c.heapMb, decodes, msg.heapUsed ?? -1, wantedSpares);
      finish(
        () =>
          msg.table
            ? resolve(msg)
            : reject(
                new DataError(msg.error?.code ?? 'DATA_CORRUPT', msg.error?.message ?? `${file}: cannot be decoded`, {
                  hint: msg.error?.hint,
                }),
              ),
        kept,
      );
    };
    const onError = (err: Error & { code?: string }) => {
      const oom = err.code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|heap/i.test(err.message);
      finish(() =>
        reject(
          oom
            ? new DataError('DATA_TOO_LARGE', `${file}: decoding needed more than the ${c.heapMb} MB decode heap`, {
                hint: capHint(
                  'heapMb',
                  c,
                  'The file inflates to more than fits in memory (or is crafted to): split it or load fewer columns.',
                ),
              })
            : new DataError(
                'DATA_DECODE_FAILED',
                `${file}: the ${format} decoder failed (${err.message.slice(0, 300)})`,
                {
                  hint: 'The file is damaged or uses features sbirtools cannot read; write it again with pyarrow, DuckDB or Polars.',
                },
              ),
        ),
      );
    };
    const onExit = (code: number) => {
      finish(() =>
        reject(
          new DataError(
            'DATA_DECODE_FAILED',
            `${file}: the ${format} decoder stopped (exit code ${code}) before finishing`,
            { hint: 'The file is damaged or crafted to crash readers; write it again.' },
          ),
        ),
      );
    };
    // a worker kept as a spare gets new listeners from spareWorker.ts: these must not answer for its next job
    const detach = listen(worker, { message: onMessage, error: onError, exit: onExit });
    post();
  });
  return { answer, cancel: () => cancel() };
}

/** The compiled worker script (workerScript.ts says where it is looked for). */
function workerPath(): URL {
  return workerScript(
    import.meta.url,
    'decodeInWorker.js',
    new URL('./decodeWorker.js', import.meta.url),
    'src/data/formats/decodeWorker.js',
  );
}
