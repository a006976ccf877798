import { Worker } from 'node:worker_threads';

/** A worker for one decode job: a warm spare (the job goes as a message) or a new one (workerData). */
export interface DecodeWorker {
  worker: Worker;
  /** Sends the job (a no-op for a new worker, which got it as workerData). */
  post: () => void;
  /** A spare that may come back after a clean decode (returnSpare). */
  reusable: boolean;
  /** Files this worker decoded before. */
  decodes: number;
}

interface Spare {
  worker: Worker;
  heapMb: number;
  decodes: number;
  /** Its JIT is warm: it finished its warm-up, or it has decoded a file. */
  warm: boolean;
  /** Removes the listeners park() added (and only those: see listen). */
  detach: () => void;
}

/** Waiting spares, oldest first; at most MAX_SPARES. A spare that exits or fails leaves the list (park's drop). */
const spares: Spare[] = [];
/** Spares kept at most: two, so a large Parquet file can be decoded in two parts (decodeInWorker.ts). */
const MAX_SPARES = 2;
/** Files one spare worker decodes at most before it is replaced (its heap starts clean again). */
const MAX_DECODES = 16;

/**
 * Listens to a decode worker's 'message', 'error' and 'exit' events; the returned function removes
 * exactly these listeners. (Never `removeAllListeners()`: Node's Worker has listeners of its own
 * that start its message port again when a 'message' listener is added, and without them the
 * worker's next answer would never arrive.)
 * @example const detach = listen(worker, { message: onAnswer, error: onError, exit: onExit });
 */
export function listen<M>(
  worker: Worker,
  on: { message: (m: M) => void; error: (e: Error & { code?: string }) => void; exit: (code: number) => void },
): () => void {
  worker.on('message', on.message);
  worker.on('error', on.error);
  worker.on('exit', on.exit);
  return () => {
    worker.off('message', on.message);
    worker.off('error', on.error);
    worker.off('exit', on.exit);
  };
}

function start(script: URL, workerData: unknown, heapMb: number): Worker {
  return new Worker(script, {
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 },
    stdout: true,
    stderr: true,
  });
}

/**
 * A decode worker for one job: a spare started earlier when its limits match (it has already
 * loaded and compiled the readers: ~0.1-0.2 s of a decode on the 2-core VM, docs/benchmarks.md),
 * else a new one. The job goes in `workerData` for a new worker and as a message for the spare.
 * A worker that failed in any way is terminated, so a hostile file can only ever crash its own
 * worker and never reaches a worker another file will use; a spare that succeeded may come back
 * (returnSpare). Call `keepSpare` once the decode is done to have the next one ready.
 * @example const { worker, post } = decodeWorker(script, job, 2048); post();
 */
export function decodeWorker(script: URL, job: unknown, heapMb: number): DecodeWorker {
  return (
    takeSpare(job, heapMb) ?? { worker: start(script, job, heapMb), post: () => undefined, reusable: false, decodes: 0 }
  );
}

/**
 * Two warm spares for the two parts of one file, or null (and nothing taken) unless two with
 * these limits are waiting and done warming up: a part never waits for a worker to start,
 * compile or warm up (the slower part sets the time of the whole file).
 * @example const pair = sparePair([jobA, jobB], 2048);
 */
export function sparePair(jobs: [unknown, unknown], heapMb: number): [DecodeWorker, DecodeWorker] | null {
  prune(heapMb);
  if (spares.filter((s) => s.warm).length < 2) return null;
  return [takeSpare(jobs[0], heapMb, true)!, takeSpare(jobs[1], heapMb, true)!];
}

/**
 * Keep a spare-started worker that just decoded a file successfully as a spare again: it stays
 * JIT-warm (a decode in a warm worker is ~2x faster, docs/benchmarks.md) instead of a new one
 * warming up again. Only a worker whose every decode succeeded comes back (any failure, deadline
 * or crash terminates it), with a small heap left after the decode, for at most MAX_DECODES
 * files, while fewer than `wanted` spares wait; otherwise it is terminated. Returns whether it was
 * kept. The caller has removed its own listeners from the worker first.
 */
export function returnSpare(worker: Worker, heapMb: number, decodes: number, heapUsed: number, wanted = 1): boolean {
  prune(heapMb);
  if (
    spares.length >= Math.min(wanted, MAX_SPARES) ||
    decodes + 1 >= MAX_DECODES ||
    !(heapUsed >= 0 && heapUsed < (heapMb * 1048576) / 8)
  )
    return false;
  park(worker, heapMb, decodes + 1, true);
  return true;
}

/**
 * Start spare decode workers until `wanted` (at most two) wait: each loads the readers and then
 * waits, unreferenced, so it never keeps a process alive.
 * @example keepSpare(script, 2048);
 */
export function keepSpare(script: URL, heapMb: number, wanted = 1): void {
  prune(heapMb);
  while (spares.length < Math.min(wanted, MAX_SPARES)) park(start(script, { spare: true }, heapMb), heapMb, 0, false);
}

/** The oldest waiting spare, if any: how many files it has decoded, and how many spares wait (tests and diagnostics). */
export function spareState(): { decodes: number; waiting?: number } | undefined {
  const live = spareDecodes();
  if (live.length === 0) return undefined;
  return live.length === 1 ? { decodes: live[0] } : { decodes: live[0], waiting: live.length };
}

/** How many files each waiting spare has decoded, oldest first (tests and diagnostics). */
export function spareDecodes(): number[] {
  return spares.map((s) => s.decodes);
}

/** How many waiting spares are done warming up (only those take parts of a file). */
export function warmSpares(): number {
  return spares.filter((s) => s.warm).length;
}

/** A waiting spare (a warm one first; with `warmOnly` none other), taken out of the pool (only park's listeners removed: listen). */
function takeSpare(job: unknown, heapMb: number, warmOnly = false): DecodeWorker | null {
  prune(heapMb);
  const warm = spares.findIndex((s) => s.warm);
  const i = warm >= 0 || warmOnly ? warm : 0;
  const s = i >= 0 ? spares.splice(i, 1)[0] : undefined;
  if (!s) return null;
  s.detach();
  s.worker.ref();
  return { worker: s.worker, post: () => s.worker.postMessage(job), reusable: true, decodes: s.decodes };
}

/** Terminate the spares started with other limits. */
function prune(heapMb: number): void {
  for (let i = spares.length - 1; i >= 0; i--) {
    const s = spares[i];
    if (s.heapMb !== heapMb) {
      spares.splice(i, 1);
      void s.worker.terminate();
    }
  }
}

/**
 * Make `worker` a waiting spare, unreferenced; one that fails or exits while idle is dropped. A new
 * one says `{ warm: true }` when its warm-up is done (decodeWorker.ts).
 */
function park(worker: Worker, heapMb: number, decodes: number, warm: boolean): void {
  const drop = () => {
    const i = spares.indexOf(entry);
    if (i >= 0) spares.splice(i, 1);
  };
  const onMessage = (m: { warm?: boolean }) => {
    if (m?.warm) entry.warm = true;
  };
  const entry: Spare = {
    worker,
    heapMb,
    decodes,
    warm,
    detach: listen(worker, { message: onMessage, error: drop, exit: drop }),
  };
  worker.unref();
  spares.push(entry);
}
