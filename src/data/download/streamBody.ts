import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DataError, isDiskFull, isUnwritable } from '../errors.js';
import { sniffNotCsv } from '../ingest/byteSource.js';
import type { OpenResponse } from './httpGet.js';

const MB = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/**
 * Streams the response body into the partial file (appending when resuming) and checks it is
 * whole: the byte count must match Content-Length / Content-Range. An HTML page or binary data is
 * refused at the first chunk. On a stall or a cut connection the partial file is kept for resume;
 * on a full disk or a refused body it is removed.
 * @returns the partial file's total size.
 * @throws {DataError} DOWNLOAD_STALLED, DOWNLOAD_DEADLINE, DOWNLOAD_TRUNCATED, DOWNLOAD_NOT_CSV, DISK_FULL, CACHE_DIR_UNWRITABLE.
 */
export async function streamBody(
  open: OpenResponse,
  part: string,
  o: {
    append: boolean;
    partSize: number;
    onProgress?: (p: { receivedBytes: number; totalBytes?: number; resumedFrom: number }) => void;
  },
): Promise<number> {
  const { res, url } = open;
  const start = o.append ? o.partSize : 0;
  const length = Number(res.headers['content-length'] ?? NaN);
  const rangeTotal = /\/(\d+)$/.exec(String(res.headers['content-range'] ?? ''));
  const total = rangeTotal ? Number(rangeTotal[1]) : Number.isFinite(length) ? start + length : undefined;
  let received = start;
  let first = !o.append;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (first) {
        first = false;
        const why = sniffNotCsv(chunk);
        if (why)
          return done(
            new DataError(
              'DOWNLOAD_NOT_CSV',
              `${url.href} did not return a CSV: ${why}. Check the URL. The cached file was left unchanged.`,
            ),
          );
      }
      received += chunk.length;
      o.onProgress?.({ receivedBytes: received, totalBytes: total, resumedFrom: start });
      done(null, chunk);
    },
  });
  const file = createWriteStream(part, { flags: o.append ? 'a' : 'w' });
  try {
    await pipeline(res, meter, file);
  } catch (err) {
    open.req.destroy();
    // a write may still be in flight: wait until the file is closed, so its size is final for resume
    if (!file.closed) await once(file, 'close').catch(() => {});
    if (err instanceof DataError && err.code === 'DOWNLOAD_NOT_CSV') {
      await rm(part, { force: true });
      throw err;
    }
    // the transfer's deadline (httpGet's deadlineMs): the partial file is kept for resume
    if (err instanceof DataError && err.code === 'DOWNLOAD_DEADLINE') throw err;
    if (isDiskFull(err)) {
      await rm(part, { force: true });
      throw new DataError(
        'DISK_FULL',
        `No space left on the device while writing ${part} (${MB(received)} of ${total ? MB(total) : 'unknown'}). Free some space or set SBIRTOOLS_CACHE_DIR to a larger disk. The cached file was left unchanged.`,
        { cause: err },
      );
    }
    if (isUnwritable(err)) {
      throw new DataError(
        'CACHE_DIR_UNWRITABLE',
        `Cannot write ${part}. Make the directory writable or set SBIRTOOLS_CACHE_DIR. The cached file was left unchanged.`,
        { cause: err },
      );
    }
    if (open.stalled()) {
      throw new DataError(
        'DOWNLOAD_STALLED',
        `No data from ${url.host} for a while after ${MB(received)}${total ? ` of ${MB(total)}` : ''}. The server stalled: run the command again to resume, or raise --idle-timeout-ms. The cached file was left unchanged.`,
        { cause: err },
      );
    }
    throw truncated(url, received, total, err);
  }
  if (total !== undefined && received !== total) throw truncated(url, received, total);
  return received;
}

function truncated(url: URL, received: number, total: number | undefined, cause?: unknown): DataError {
  return new DataError(
    'DOWNLOAD_TRUNCATED',
    `The download from ${url.host} stopped after ${MB(received)}${total ? ` of ${MB(total)}` : ''} (connection lost). Run the command again: it resumes where it stopped. The cached file was left unchanged.`,
    { cause },
  );
}
