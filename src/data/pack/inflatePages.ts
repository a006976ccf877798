import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { workerScript } from '../workerScript.js';
import { inflatePage, type PageAnswer, type PageJob, type PagesTask } from './inflateWorker.js';
import type { PackBuffer } from './manifest.js';

/** Helper threads at most (this thread inflates too). */
const MAX_HELPERS = 3;
/** How long to wait for a page a helper claimed before inflating it here. */
const PAGE_WAIT_MS = 30_000;

/**
 * A paged buffer (manifest.ts `pages`) inflated into one array: the pages are shared out among this
 * thread and up to MAX_HELPERS worker threads (one fewer than the cores), each taking the next page
 * until none is left, so the first touch of a long-text column takes about 1/cores of one pass. With
 * one core, or when no worker can start, this thread inflates every page. Synchronous: a column is
 * loaded from inside a running guest call.
 * @returns the bytes, or a string saying which page is damaged.
 * @example const bytes = inflatePages(stored, entry.buffers.bytes);
 */
export function inflatePages(stored: Uint8Array, b: PackBuffer): Uint8Array | string {
  const pageRaw = b.pageRaw!;
  const jobs: Omit<PageJob, 'stored'>[] = [];
  const spans: [number, number][] = [];
  let at = 0;
  for (const [index, length] of b.pages!.entries()) {
    jobs.push({ index, rawLength: Math.min(pageRaw, b.rawLength - index * pageRaw) });
    spans.push([at, length]);
    at += length;
  }
  if (at !== stored.byteLength || jobs.some((j) => j.rawLength <= 0)) return 'its pages do not add up to the buffer';
  const out = new Uint8Array(b.rawLength);
  const place = (answer: PageAnswer): string | undefined => {
    if ('error' in answer) return answer.error;
    out.set(answer.bytes, answer.index * pageRaw);
    return undefined;
  };
  const helpers = Math.min(availableParallelism() - 1, MAX_HELPERS, jobs.length - 1);
  if (helpers < 1) {
    for (const job of jobs) {
      const err = place(
        inflatePage({
          ...job,
          stored: stored.subarray(spans[job.index]![0], spans[job.index]![0] + spans[job.index]![1]),
        }),
      );
      if (err) return err;
    }
    return out;
  }
  // the stored bytes go to the helpers once, shared (a typed array posted alone copies its whole buffer)
  const shared = new Uint8Array(new SharedArrayBuffer(stored.byteLength));
  shared.set(stored);
  const next = new Int32Array(new SharedArrayBuffer(4));
  const threads = Array.from({ length: helpers }, () => startHelper({ stored: shared, jobs, spans, next }));
  const done = new Uint8Array(jobs.length);
  let failed: string | undefined;
  // this thread claims pages like any helper
  for (;;) {
    const i = Atomics.add(next, 0, 1);
    if (i >= jobs.length) break;
    const [from, length] = spans[i]!;
    failed = place(inflatePage({ ...jobs[i]!, stored: shared.subarray(from, from + length) }));
    done[i] = 1;
    if (failed) {
      Atomics.store(next, 0, jobs.length); // the helpers stop after their current page
      break;
    }
  }
  // then the pages the helpers claimed, as they come back
  for (const t of threads) {
    for (;;) {
      let msg: { message: PageAnswer } | undefined;
      while ((msg = receiveMessageOnPort(t.port) as { message: PageAnswer } | undefined)) {
        failed ??= place(msg.message);
        done[msg.message.index] = 1;
        t.received++;
      }
      if (failed || done.every(Boolean)) break;
      const seen = Atomics.load(t.delivered, 0);
      if (seen > t.received) continue;
      // this helper owes nothing more once every page is claimed and all it sent arrived;
      // a helper that never started claimed nothing
      if (Atomics.load(next, 0) >= jobs.length && Atomics.load(t.busy, 0) === 0) {
        // it may have sent its last page between the drain above and the flag going down
        const last = receiveMessageOnPort(t.port) as { message: PageAnswer } | undefined;
        if (!last) break;
        failed ??= place(last.message);
        done[last.message.index] = 1;
        t.received++;
        continue;
      }
      if (Atomics.wait(t.delivered, 0, seen, PAGE_WAIT_MS) === 'timed-out') break;
    }
  }
  for (const t of threads) {
    t.port.close();
    void t.worker.terminate();
  }
  if (failed) return failed;
  // a page a helper claimed but never sent (it died): inflated here
  for (const [i, job] of jobs.entries()) {
    if (done[i]) continue;
    const [from, length] = spans[i]!;
    const err = place(inflatePage({ ...job, stored: shared.subarray(from, from + length) }));
    if (err) return err;
  }
  return out;
}

interface Helper {
  worker: Worker;
  port: MessagePort;
  delivered: Int32Array;
  received: number;
  busy: Int32Array;
}

function startHelper(task: Omit<PagesTask, 'delivered' | 'port' | 'busy'>): Helper {
  const { port1, port2 } = new MessageChannel();
  const delivered = new Int32Array(new SharedArrayBuffer(4));
  const busy = new Int32Array(new SharedArrayBuffer(4));
  // no flags of the parent: a worker refuses process-wide ones such as --no-node-snapshot
  const worker = new Worker(workerPath(), { execArgv: [] });
  worker.unref();
  worker.on('error', () => undefined);
  worker.postMessage({ ...task, delivered, busy, port: port2 } satisfies PagesTask, [port2]);
  return { worker, port: port1, delivered, received: 0, busy };
}

/** The compiled worker script (workerScript.ts says where it is looked for). */
function workerPath(): URL {
  return workerScript(
    import.meta.url,
    'inflatePages.js',
    new URL('./inflateWorker.js', import.meta.url),
    'src/data/pack/inflateWorker.js',
  );
}
