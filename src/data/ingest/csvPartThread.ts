import { Worker } from 'node:worker_threads';
import { DataError } from '../errors.js';
import { CSV_STALL_ENV } from './csvStall.js';
import { workerScript } from '../workerScript.js';
import type { CsvPartCounts, CsvPartEncode, CsvPartJob, CsvPartMessage } from './csvPartJob.js';
import type { PartColumn } from './partColumn.js';

/** The compiled worker script (csvPartWorker.ts). */
export function defaultWorker(): URL {
  return workerScript(
    import.meta.url,
    'csvPartThread.js',
    new URL('./csvPartWorker.js', import.meta.url),
    'src/data/ingest/csvPartWorker.js',
  );
}

/** The worker of a CSV's second part, as promises of its answers. */
export interface PartWorker {
  counts: Promise<CsvPartCounts>;
  columns: Promise<PartColumn[]>;
  encode(msg: CsvPartEncode): void;
  stop(): void;
}

/** How often the parent looks at the worker's heartbeat. */
const POLL_MS = 250;

/**
 * Starts the worker of the second half; its answers as promises, a crash as a DataError. While the
 * parent waits on it (from its start until it reports its counts, and from the encode message until
 * its columns), a worker whose heartbeat (csvPartJob.ts `beat`: per chunk parsed, per column
 * encoded) stands still for `stallMs` is stopped and fails both promises with DATA_DECODE_FAILED
 * naming the file and the setting: a file that sends the parser into a loop, or a read that never
 * returns, fails the load instead of hanging it. A slow worker that still beats runs on.
 */
export function startPart(url: URL, job: CsvPartJob, stallMs: number): PartWorker {
  const beat = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(url, { workerData: { ...job, beat } });
  let onCounts!: (c: CsvPartCounts) => void;
  let onColumns!: (c: PartColumn[]) => void;
  let onFail!: (e: DataError) => void;
  const failed = new Promise<never>((_, reject) => (onFail = reject));
  failed.catch(() => {});
  const counts = Promise.race([new Promise<CsvPartCounts>((r) => (onCounts = r)), failed]);
  const columns = Promise.race([new Promise<PartColumn[]>((r) => (onColumns = r)), failed]);
  // awaited later, or never when this thread fails first: a failure is not unhandled meanwhile
  counts.catch(() => {});
  columns.catch(() => {});
  let stopped = false;
  // the heartbeat last seen, when it was seen, and whether the worker owes an answer now
  let seenBeat = 0;
  let seenAt = performance.now();
  let waiting = true;
  function stop(): void {
    clearInterval(watch);
    if (stopped) return;
    stopped = true;
    void worker.terminate();
  }
  const watch = setInterval(() => {
    const b = Atomics.load(beat, 0);
    const now = performance.now();
    if (b !== seenBeat || !waiting) {
      seenBeat = b;
      seenAt = now;
      return;
    }
    if (now - seenAt <= stallMs) return;
    stop();
    onFail(
      new DataError(
        'DATA_DECODE_FAILED',
        `${job.label}: the thread parsing the second half of the file made no progress for ${stallMs} ms (${CSV_STALL_ENV}) and was stopped`,
        {
          hint: `The file may be crafted to stall a parser: parse it on one thread (SBIRTOOLS_CSV_PARALLEL=0). On a host so busy that a thread can pause this long, raise ${CSV_STALL_ENV} (now ${stallMs}).`,
        },
      ),
    );
  }, POLL_MS);
  watch.unref();
  worker.on('message', (msg: CsvPartMessage) => {
    if ('counts' in msg) {
      waiting = false;
      onCounts(msg.counts);
    } else if ('columns' in msg) {
      clearInterval(watch);
      onColumns(msg.columns);
    } else {
      clearInterval(watch);
      onFail(
        new DataError(msg.error.code ?? 'DATA_DECODE_FAILED', msg.error.message, {
          hint: msg.error.hint,
        }),
      );
    }
  });
  const crashed = (why: string) => {
    clearInterval(watch);
    onFail(
      new DataError('DATA_DECODE_FAILED', `${job.label}: the thread parsing the second half of the file ${why}`, {
        hint: 'Parse it on one thread: set SBIRTOOLS_CSV_PARALLEL=0 (and report this as a bug if it persists).',
      }),
    );
  };
  worker.on('error', (err) => crashed(`failed (${err.message})`));
  worker.on('exit', (code) => {
    if (!stopped) crashed(`stopped (exit code ${code}) before it answered`);
  });
  return {
    counts,
    columns,
    encode: (msg) => {
      // the worker owes its columns from now: its silence counts again, from now
      seenAt = performance.now();
      seenBeat = Atomics.load(beat, 0);
      waiting = true;
      worker.postMessage(msg);
    },
    stop,
  };
}
