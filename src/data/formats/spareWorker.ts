import { Worker } from 'node:worker_threads';

/** The resource limits a decode worker is started with (fixed for a thread's life). */
export interface WorkerLimits {
  heapMb: number;
}

let spare: { worker: Worker; heapMb: number; dead: boolean; decodes: number } | null = null;

/** Files one spare worker decodes at most before it is replaced (its heap starts clean again). */
const MAX_DECODES = 16;

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
 * else a new one. The job goes in `workerData` for a new worker and as a message for the spare.
 * A worker that failed in any way is terminated, so a hostile file can only ever crash its own
 * worker and never reaches a worker another file will use; a spare that succeeded may come back
 * (returnSpare). Call `keepSpare` once the decode is done to have the next one ready.
 * @example const { worker, post } = decodeWorker(script, job, 2048); post();
 */
export function decodeWorker(script: URL, job: unknown, heapMb: number): { worker: Worker; post: () => void; reusable: boolean; decodes: number } {
  const s = spare;
  spare = null;
  if (s && !s.dead && s.heapMb === heapMb) {
    s.worker.removeAllListeners();
    s.worker.ref();
    return { worker: s.worker, post: () => s.worker.postMessage(job), reusable: true, decodes: s.decodes };
  }
  if (s) void s.worker.terminate();
  return { worker: start(script, job, heapMb), post: () => undefined, reusable: false, decodes: 0 };
}

/**
 * Keep a spare-started worker that just decoded a file successfully as the next spare: it stays
 * JIT-warm (a decode in a warm worker is ~2x faster, docs/benchmarks.md) instead of a new one
 * warming up again. Only a worker whose every decode succeeded comes back (any failure, deadline
 * or crash terminates it), with a small heap left after the decode, for at most MAX_DECODES
 * files; otherwise, or when a spare is already waiting, it is terminated. Returns whether it was kept.
 */
export function returnSpare(worker: Worker, heapMb: number, decodes: number, heapUsed: number): boolean {
  if (spare || decodes + 1 >= MAX_DECODES || !(heapUsed >= 0 && heapUsed < (heapMb * 1048576) / 8)) return false;
  worker.removeAllListeners();
  park(worker, heapMb, decodes + 1);
  return true;
}

/**
 * Start a spare decode worker (if none is waiting) that loads the readers and then waits,
 * unreferenced, so it never keeps a process alive. One idle thread per process at most.
 * @example keepSpare(script, 2048);
 */
export function keepSpare(script: URL, heapMb: number): void {
  if (spare) return;
  park(start(script, { spare: true }, heapMb), heapMb, 0);
}

/** Make `worker` the waiting spare, unreferenced; one that fails or exits while idle is dropped. */
function park(worker: Worker, heapMb: number, decodes: number): void {
  const entry = { worker, heapMb, dead: false, decodes };
  const drop = () => {
    entry.dead = true;
    if (spare === entry) spare = null;
  };
  worker.on('error', drop);
  worker.on('exit', drop);
  worker.unref();
  spare = entry;
}

/** The waiting spare, if any: how many files it has decoded (tests and diagnostics). */
export function spareState(): { decodes: number } | undefined {
  return spare && !spare.dead ? { decodes: spare.decodes } : undefined;
}
