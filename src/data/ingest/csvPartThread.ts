import { Worker } from 'node:worker_threads';
import { DataError } from '../errors.js';
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

/** Starts the worker of the second half; its answers as promises, a crash as a DataError. */
export function startPart(url: URL, job: CsvPartJob): PartWorker {
  const worker = new Worker(url, { workerData: job });
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
  worker.on('message', (msg: CsvPartMessage) => {
    if ('counts' in msg) onCounts(msg.counts);
    else if ('columns' in msg) onColumns(msg.columns);
    else
      onFail(
        new DataError(msg.error.code ?? 'DATA_DECODE_FAILED', msg.error.message, {
          hint: msg.error.hint,
        }),
      );
  });
  const crashed = (why: string) =>
    onFail(
      new DataError('DATA_DECODE_FAILED', `${job.label}: the thread parsing the second half of the file ${why}`, {
        hint: 'Parse it on one thread: set SBIRTOOLS_CSV_PARALLEL=0 (and report this as a bug if it persists).',
      }),
    );
  worker.on('error', (err) => crashed(`failed (${err.message})`));
  worker.on('exit', (code) => {
    if (!stopped) crashed(`stopped (exit code ${code}) before it answered`);
  });
  return {
    counts,
    columns,
    encode: (msg) => worker.postMessage(msg),
    stop: () => {
      if (stopped) return;
      stopped = true;
      void worker.terminate();
    },
  };
}
