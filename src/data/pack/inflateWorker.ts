/**
 * A worker thread of inflatePages.ts: inflates the pages it is given (independent gzip members of
 * one long buffer) and sends each back, its memory transferred, then raises the caller's flag.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';

/** One page to inflate: its stored bytes and the exact length it must inflate to. */
export interface PageJob {
  index: number;
  stored: Uint8Array;
  rawLength: number;
}
/** What comes back for a page: its bytes, or why it would not inflate. */
export type PageAnswer = { index: number; bytes: Uint8Array } | { index: number; error: string };

/**
 * Inflate one page to exactly `rawLength` bytes, or say why not.
 * @example const r = inflatePage({ index: 0, stored, rawLength }); if ('error' in r) ...
 */
export function inflatePage(job: PageJob): PageAnswer {
  try {
    const bytes = gunzipSync(job.stored, {
      maxOutputLength: Math.max(1, job.rawLength),
      chunkSize: Math.max(64, job.rawLength + 64),
    });
    return bytes.byteLength === job.rawLength
      ? { index: job.index, bytes }
      : {
          index: job.index,
          error: `page ${job.index} inflates to ${bytes.byteLength} bytes, expected ${job.rawLength}`,
        };
  } catch (err) {
    return {
      index: job.index,
      error: `page ${job.index} does not inflate (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    };
  }
}

/** What a helper thread is given: every page's stored bytes (shared), and the counters shared with the caller. */
export interface PagesTask {
  stored: Uint8Array;
  jobs: Omit<PageJob, 'stored'>[];
  /** [stored offset, stored length] per page. */
  spans: [number, number][];
  /** [0]: the next page to claim (every thread takes the next one). */
  next: Int32Array;
  /** [0]: pages this thread sent back (the caller waits on it). */
  delivered: Int32Array;
  /** [0]: 1 from before this thread claims a page until it sent it back; 0 once it has stopped. */
  busy: Int32Array;
  port: MessagePort;
}

parentPort?.on('message', (task: PagesTask) => {
  for (;;) {
    // busy before the claim: the caller, seeing every page claimed and this flag down, knows
    // nothing more will come from here
    Atomics.store(task.busy, 0, 1);
    const i = Atomics.add(task.next, 0, 1);
    if (i >= task.jobs.length) break;
    const [at, length] = task.spans[i]!;
    const answer = inflatePage({ ...task.jobs[i]!, stored: task.stored.subarray(at, at + length) });
    if ('bytes' in answer) {
      // transfer only memory this page owns alone (a small result may sit in Node's shared pool)
      const own =
        answer.bytes.byteOffset === 0 && answer.bytes.buffer.byteLength === answer.bytes.byteLength
          ? answer.bytes
          : new Uint8Array(answer.bytes);
      task.port.postMessage({ index: answer.index, bytes: own }, [own.buffer as ArrayBuffer]);
    } else task.port.postMessage(answer);
    Atomics.add(task.delivered, 0, 1);
    Atomics.notify(task.delivered, 0);
  }
  Atomics.store(task.busy, 0, 0);
  Atomics.notify(task.delivered, 0);
  task.port.close();
});
