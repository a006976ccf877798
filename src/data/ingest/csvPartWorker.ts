// The worker that reads the later part of a big CSV (csvInParts.ts): it parses bytes [start, end)
// with the file's header, reports what it saw, then encodes its columns as the parent decides
// and hands them over (transferred, not copied).
import { parentPort, workerData } from 'node:worker_threads';
import type { PartColumn } from './partColumn.js';
import { DataError } from '../errors.js';
import { utf8Chunks, type ByteSourceStats } from './byteSource.js';
import type { CsvPartEncode, CsvPartJob, CsvPartMessage } from './csvPartJob.js';
import { CsvRecords } from './csvRecords.js';

const job = workerData as CsvPartJob;
const port = parentPort!;
const post = (msg: CsvPartMessage, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);
// progress, not a timer: a thread stuck in a loop (or its reads) must look stuck to the parent
const beat = () => {
  if (job.beat) Atomics.add(job.beat, 0, 1);
};
beat();

function fail(err: unknown): void {
  const e = err as Error & { hint?: string };
  post({ error: { code: err instanceof DataError ? err.code : undefined, message: e.message, hint: e.hint } });
}

async function read(): Promise<CsvRecords> {
  const stats: ByteSourceStats = { totalBytes: 0, replacedInvalidUtf8: 0 };
  const records = new CsvRecords(
    { label: job.label, forceInfer: job.forceInfer, maxDictSize: job.maxDictSize, totalBytes: () => job.totalBytes },
    job.header,
  );
  for await (const chunk of utf8Chunks(job.path, stats, undefined, { start: job.start, end: job.end })) {
    records.scanner.push(chunk.data);
    beat();
  }
  records.scanner.finish();
  post({
    counts: {
      rows: records.rows,
      blankLines: records.blankLines,
      raggedCount: records.raggedCount,
      raggedRecords: records.raggedRecords,
      invalidCells: records.issues.list(),
      malformedFields: records.scanner.malformedFields,
      unterminatedQuote: records.scanner.unterminatedQuote,
      replacedInvalidUtf8: stats.replacedInvalidUtf8,
      summaries: records.builders.map((b) => {
        const s = b.summary();
        beat();
        return s;
      }),
    },
  });
  return records;
}

/** Every buffer under the columns (a text part nests its UTF-8 and codes one level down), once. */
function buffersOf(columns: PartColumn[]): ArrayBuffer[] {
  const seen = new Set<ArrayBuffer>();
  const add = (o: object | null) => {
    for (const v of Object.values(o ?? {}) as unknown[]) {
      if (ArrayBuffer.isView(v)) seen.add(v.buffer as ArrayBuffer);
      else if (typeof v === 'object') add(v as object | null);
    }
  };
  for (const c of columns) add(c);
  return [...seen];
}

read().then(
  (records) =>
    port.once('message', ({ decisions }: CsvPartEncode) => {
      try {
        beat();
        const columns = records.builders.map((b, i) => {
          const c = b.finishPart(decisions[i]);
          beat();
          return c;
        });
        post({ columns }, buffersOf(columns));
      } catch (err) {
        fail(err);
      }
    }),
  fail,
);
