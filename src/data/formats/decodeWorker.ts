/**
 * Worker-thread entry of decodeInWorker.ts: decodes a table file (or one part of a Parquet
 * file's columns: the job's `part`) and posts the columnar table back with its typed arrays
 * transferred (no copy). A DataError is posted as { error }; anything
 * that kills this thread (a heap overrun under resourceLimits, a stack overflow in a reader)
 * ends the worker, never the host. The job comes as workerData, or, for a spare worker started
 * ahead of need (spareWorker.ts), as a message (a spare that decoded a file without any failure
 * may be sent a few more, each after the last one's answer); a spare loads the Parquet and Arrow
 * readers while it waits and warms both decoders up (parquetColumnar/warmUp.ts,
 * arrowColumnar/warmUp.ts), so a decode does not pay for compiling them, then posts
 * `{ warm: true }` (only a warm spare takes a part of a Parquet file).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ColumnarTable } from '../../../schema/columnar.js';
import { DataError } from '../errors.js';
import type { DecodeCaps } from './decodeCaps.js';
import { decodeTable, type DecodedFormat } from './decodeTable.js';
import type { TablePart } from './parquetParts.js';

interface Job {
  name: string;
  bytes: Uint8Array;
  file: string;
  format: DecodedFormat;
  caps: DecodeCaps;
  /** Decode only this part of a Parquet file's columns (the answer's table then has `leaves`). */
  part?: TablePart;
}

const init = workerData as Job | { spare: true };
if ('spare' in init) {
  let arrived = false;
  // jobs one at a time: the host sends the next only after this one's answer (and only after a
  // success: any failure ends this worker), so a reused worker is always idle and healthy
  parentPort!.on('message', (job: Job) => {
    arrived = true;
    void run(job);
  });
  // compile the common readers while idle (a job that arrives first simply waits for them), then
  // let V8 optimize the Parquet and Arrow decoders' loops on small synthetic files
  void import('./arrow.js').catch(() => undefined);
  void import('./zstd.js').then((m) => m.loadZstd()).catch(() => undefined);
  // ...and says when it is done: only a spare that finished warming up takes a part of a file
  // (a part on a cold one would hold the other part back; spareWorker.ts sparePair)
  void import('./parquetColumnar/warmUp.js')
    .then((m) => m.warmUpParquet(() => arrived))
    .then(() => import('./arrowColumnar/warmUp.js'))
    .then((m) => m.warmUpArrow(() => arrived))
    .then(() => (arrived ? undefined : parentPort!.postMessage({ warm: true })))
    .catch(() => undefined);
} else {
  await run(init);
}

async function run(job: Job): Promise<void> {
  try {
    // the parts of one file come in one SharedArrayBuffer: decode a private copy (readers call
    // TextDecoder, which refuses shared memory, and nothing may change under the decoder)
    const bytes = job.bytes.buffer instanceof SharedArrayBuffer ? job.bytes.slice() : job.bytes;
    const table = await decodeTable(job.name, bytes, job.file, job.format, job.caps, job.part);
    parentPort!.postMessage({ table, heapUsed: process.memoryUsage().heapUsed }, transferables(table));
  } catch (err) {
    const e = err as Error & { code?: string; hint?: string };
    parentPort!.postMessage({
      error:
        err instanceof DataError
          ? { code: e.code, message: e.message, hint: e.hint }
          : {
              code: 'DATA_CORRUPT',
              message: `${job.file}: the ${job.format} data cannot be decoded (${String(e?.message ?? err).slice(0, 500)})`,
            },
    });
  }
}

function transferables(t: Pick<ColumnarTable, 'columns'>): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const c of t.columns) {
    for (const v of Object.values(c.data)) if (ArrayBuffer.isView(v)) out.add(v.buffer as ArrayBuffer);
  }
  return [...out];
}
