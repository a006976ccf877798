import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { DataError } from '../errors.js';
import { workerScript } from '../workerScript.js';
import type { FetchAnswer } from './fetchWorker.js';
import type { RemoteOptions } from './remoteOptions.js';

let worker: Worker | undefined;
/** Raised by the worker once its modules loaded (a worker that cannot start must not cost a deadline). */
let started: Int32Array | undefined;
/** How long a new fetch thread may take to load its modules (a loaded 2-core machine takes ~1 s). */
const START_MS = 20_000;

/**
 * Fetches and verifies one column file synchronously: the transfer runs in a worker thread (one per
 * process, started on first use, never keeping the process alive) while this thread waits on a
 * shared flag. Synchronous because the sandbox loads a column from inside a running guest call.
 * @throws {DataError} DATA_FETCH_FAILED (host, path, status) from the worker, or when it does not answer by the deadline.
 * @example const { bytes } = fetchColumnSync(url, entry.bytes, entry.sha256, cachePath, opts);
 */
export function fetchColumnSync(
  url: URL,
  bytes: number,
  sha256: string,
  dest: string | null,
  opts: Required<RemoteOptions>,
): { bytes: Uint8Array; requests: number; cached: boolean } {
  worker ??= startWorker();
  if (Atomics.load(started!, 0) === 0 && Atomics.wait(started!, 0, 0, START_MS) === 'timed-out') {
    void worker.terminate();
    worker = undefined;
    throw new DataError(
      'DATA_FETCH_FAILED',
      `Fetching ${url.pathname} from ${url.host} failed: the fetch thread did not start within ${START_MS} ms.`,
      {
        hint: 'sbirtools could not start its fetch worker (dist/src/data/remote/fetchWorker.js); check the install (`npm run build`) and that worker threads are allowed.',
        host: url.host,
        path: url.pathname,
      },
    );
  }
  const { port1, port2 } = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  worker.postMessage({ url: url.href, bytes, sha256, dest, opts, port: port2, flag }, [port2]);
  // the worker enforces the deadline; this wait only guards against a worker that died
  const waited = Atomics.wait(flag, 0, 0, opts.deadlineMs + 10_000);
  const got = receiveMessageOnPort(port1)?.message as FetchAnswer | undefined;
  port1.close();
  if (waited === 'timed-out' || !got) {
    void worker.terminate();
    worker = undefined;
    throw new DataError(
      'DATA_FETCH_FAILED',
      `Fetching ${url.pathname} from ${url.host} failed: the fetch thread did not answer within ${opts.deadlineMs} ms.`,
      {
        hint: 'Run the code again; if it keeps failing, check the host and the remoteData limits.',
        host: url.host,
        path: url.pathname,
      },
    );
  }
  if (!got.ok) {
    const { code, message, ...rest } = got.error;
    throw new DataError(code as 'DATA_FETCH_FAILED', message, rest);
  }
  return { bytes: got.bytes, requests: got.requests, cached: got.cached };
}

/**
 * Starts the fetch thread now (idempotent), so that its ~0.1-0.5 s of module loading overlaps the
 * manifest fetch and the sandbox's start instead of delaying the first column.
 */
export function prepareFetchThread(): void {
  worker ??= startWorker();
}

function startWorker(): Worker {
  started = new Int32Array(new SharedArrayBuffer(4));
  // no flags of the parent: --input-type (node -e) stops a worker from loading, and a worker
  // refuses process-wide ones such as --no-node-snapshot; this one needs none
  const w = new Worker(workerPath(), { workerData: { started }, execArgv: [] });
  w.unref();
  w.on('error', () => {
    if (worker === w) worker = undefined;
  });
  w.on('exit', () => {
    if (worker === w) worker = undefined;
  });
  return w;
}

/** The compiled worker script (workerScript.ts says where it is looked for). */
function workerPath(): URL {
  return workerScript(
    import.meta.url,
    'syncFetch.js',
    new URL('./fetchWorker.js', import.meta.url),
    'src/data/remote/fetchWorker.js',
  );
}
