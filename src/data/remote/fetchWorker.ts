/**
 * Worker thread of syncFetch.ts: fetches one column file, checks its size and SHA-256 against the
 * manifest, caches it atomically, hands the bytes back, and wakes the waiting thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { fetchColumn } from './fetchColumn.js';
import type { RemoteOptions } from './remoteOptions.js';

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
    return { ok: true, ...(await fetchColumn(url, job.bytes, job.sha256, job.dest, job.opts)) };
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
