import { Worker } from 'node:worker_threads';

/** The resource limits a decode worker is started with (fixed for a thread's life). */
export interface WorkerLimits {
  heapMb: number;
}

let spare: { worker: Worker; heapMb: number; dead: boolean } | null = null;

function start(script: URL, workerData: unknown, heapMb: number): Worker {
  return new Worker(script, {
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 },
    stdout: true,
    stderr: true,
  });
}

/**
 * A decode worker for one job: the spare started earlier when its limits match (it has already
 * loaded and compiled the readers: ~0.1-0.2 s of a decode on the 2-core VM, docs/benchmarks.md),
 * else a new one. The job goes in `workerData` for a new worker and as the first message for the
 * spare. Each worker still decodes exactly one file and is terminated after it, so a hostile
 * file can only ever crash its own worker. Call `keepSpare` once the decode is done to have the
 * next one ready.
 * @example const { worker, post } = decodeWorker(script, job, 2048); post();
 */
export function decodeWorker(script: URL, job: unknown, heapMb: number): { worker: Worker; post: () => void } {
  const s = spare;
  spare = null;
  if (s && !s.dead && s.heapMb === heapMb) {
    s.worker.removeAllListeners();
    s.worker.ref();
    return { worker: s.worker, post: () => s.worker.postMessage(job) };
  }
  if (s) void s.worker.terminate();
  return { worker: start(script, job, heapMb), post: () => undefined };
}

/**
 * Start a spare decode worker (if none is waiting) that loads the readers and then waits,
 * unreferenced, so it never keeps a process alive. One idle thread per process at most.
 * @example keepSpare(script, 2048);
 */
export function keepSpare(script: URL, heapMb: number): void {
  if (spare) return;
  const worker = start(script, { spare: true }, heapMb);
  const entry = { worker, heapMb, dead: false };
  // an idle spare that fails or exits is dropped; the next decode starts a new worker
  const drop = () => {
    entry.dead = true;
    if (spare === entry) spare = null;
  };
  worker.on('error', drop);
  worker.on('exit', drop);
  worker.unref();
  spare = entry;
}
