/**
 * Worker thread of syncFetch.ts: fetches one column file, checks its size and SHA-256 against the
 * manifest, caches it atomically, hands the bytes back, and wakes the waiting thread.
 */
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { fetchBytes } from './fetchBytes.js';
import { fetchFailed } from './fetchFailed.js';
import type { RemoteOptions } from './remoteOptions.js';
import { writeCachedSync } from './columnCache.js';

/** A job for this worker. */
export interface FetchJob {
  url: string;
  bytes: number;
  sha256: string;
  /** Cache file to write, or null to keep the bytes in memory only. */
  dest: string | null;
  opts: Required<RemoteOptions>;
  port: MessagePort;
  flag: Int32Array;
}

/** The worker's answer, sent on the job's port before the flag is raised. */
export type FetchAnswer =
  | { ok: true; bytes: Uint8Array; requests: number; cached: boolean }
  | {
      ok: false;
      error: { code: string; message: string; hint?: string; host?: string; path?: string; status?: number };
    };

async function run(job: FetchJob): Promise<FetchAnswer> {
  const url = new URL(job.url);
  try {
    if (job.bytes > job.opts.maxColumnBytes)
      throw fetchFailed(
        url,
        `the manifest gives this column file ${job.bytes} bytes, over the cap of ${job.opts.maxColumnBytes} (remoteData.maxColumnBytes)`,
      );
    const { bytes, requests } = await fetchBytes(url, job.opts, {
      maxBytes: job.opts.maxColumnBytes,
      expectedBytes: job.bytes,
    });
    if (bytes.byteLength !== job.bytes)
      throw fetchFailed(url, `the column file has ${bytes.byteLength} bytes, the manifest says ${job.bytes}`);
    const sha = createHash('sha256').update(bytes).digest('hex');
    // checked before it is cached or used: a file whose hash differs is never written
    if (sha !== job.sha256)
      throw fetchFailed(
        url,
        `the column file's hash ${sha.slice(0, 12)}… differs from the manifest's ${job.sha256.slice(0, 12)}…`,
      );
    const cached = job.dest !== null && writeCachedSync(job.dest, bytes);
    return { ok: true, bytes, requests, cached };
  } catch (err) {
    const e = err as { code?: string; message?: string; hint?: string; host?: string; path?: string; status?: number };
    return {
      ok: false,
      error: {
        code: e.code ?? 'DATA_FETCH_FAILED',
        message: String(e.message ?? err),
        ...(e.hint ? { hint: e.hint } : {}),
        host: e.host ?? url.host,
        path: e.path ?? url.pathname,
        ...(e.status !== undefined ? { status: e.status } : {}),
      },
    };
  }
}

// tell the waiting thread this worker loaded (syncFetch.ts waits for it before its first job)
const started = (workerData as { started?: Int32Array } | null)?.started;
if (started) {
  Atomics.store(started, 0, 1);
  Atomics.notify(started, 0);
}

parentPort!.on('message', (job: FetchJob) => {
  void run(job).then((answer) => {
    const transfer =
      answer.ok && answer.bytes.byteOffset === 0 && answer.bytes.byteLength === answer.bytes.buffer.byteLength
        ? [answer.bytes.buffer as ArrayBuffer]
        : [];
    job.port.postMessage(answer, transfer);
    job.port.close();
    Atomics.store(job.flag, 0, 1);
    Atomics.notify(job.flag, 0);
  });
});
