/**
 * Worker-thread entry of decodeInWorker.ts: decodes one table file and posts the columnar table
 * back with its typed arrays transferred (no copy). A DataError is posted as { error }; anything
 * that kills this thread (a heap overrun under resourceLimits, a stack overflow in a reader)
 * ends the worker, never the host.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ColumnarTable } from '../../../schema/columnar.js';
import { DataError } from '../errors.js';
import type { DecodeCaps } from './decodeCaps.js';
import { decodeTable, type DecodedFormat } from './decodeTable.js';

interface Job {
  name: string;
  bytes: Uint8Array;
  file: string;
  format: DecodedFormat;
  caps: DecodeCaps;
}

const job = workerData as Job;
try {
  const table = await decodeTable(job.name, job.bytes, job.file, job.format, job.caps);
  parentPort!.postMessage({ table }, transferables(table));
} catch (err) {
  const e = err as Error & { code?: string; hint?: string };
  parentPort!.postMessage({
    error: err instanceof DataError ? { code: e.code, message: e.message, hint: e.hint } : { code: 'DATA_CORRUPT', message: `${job.file}: the ${job.format} data cannot be decoded (${String(e?.message ?? err).slice(0, 500)})` },
  });
}

function transferables(t: ColumnarTable): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const c of t.columns) {
    for (const v of Object.values(c.data)) if (ArrayBuffer.isView(v)) out.add(v.buffer as ArrayBuffer);
  }
  return [...out];
}
