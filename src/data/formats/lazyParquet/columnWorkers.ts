import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { DataError, type DataErrorCode } from '../../errors.js';
import { workerScript } from '../../workerScript.js';
import { capHint, type DecodeCaps } from '../decodeCaps.js';
import type { ColumnAnswer, ColumnJob } from './columnJob.js';

/** A worker silent this long (no heartbeat: columnWorker.ts) has died, most likely at its heap limit. */
const STALL_MS = 15_000;
/** How often a synchronous wait looks at the heartbeat. */
const POLL_MS = 200;
/**
 * Workers with no job for this long are ended: a decode leaves its pages as garbage in the
 * worker's heap (hundreds of MB for a long text column) until that heap is collected, and an idle
 * worker is never collected. A later column starts them again (~0.1-0.3 s; the files are checked
 * again from their page headers, a few ms).
 */
const IDLE_MS = 1000;

/** One column worker: its thread, its heartbeat, and the files it has opened. */
interface Slot {
  worker: Worker;
  status: Int32Array;
  heapMb: number;
  opened: Set<number>;
}

/** A job posted to a worker: wait for it (synchronously) with {@link ColumnWorkers.wait}. */
export interface Posted {
  slot: Slot;
  port: MessagePort;
  flag: Int32Array;
  /** When it was posted, the worker's last heartbeat seen, and when that beat was first seen. */
  since: number;
  beat: number;
  seen: number;
}

/**
 * The column decode workers of this process: up to two (one per core), started on first use,
 * never keeping the process alive. Lazily decoded Parquet tables (lazyParquetTable.ts) open their
 * file in each and ask for columns synchronously: the sandbox loads a column from inside a running
 * guest call, so the holder thread posts the job and waits on a shared flag (Atomics.wait) while a
 * worker decodes; a column with enough row groups is split between both workers. A worker that
 * dies or hangs (a hostile file past every check: heap limit, endless loop) is terminated and
 * replaced; the waiting call gets a DataError (DATA_TOO_LARGE naming the heap setting,
 * DATA_DECODE_FAILED past the deadline), never a crash of the holder.
 */
export class ColumnWorkers {
  private readonly slots: Array<Slot | undefined> = [];
  /** Jobs posted and not yet answered (or given up on). */
  private pending = 0;
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly script: URL) {}

  /** How many workers run now (they end after IDLE_MS without a job). */
  get running(): number {
    return this.slots.filter(Boolean).length;
  }

  /** How many workers a column may be split over. */
  get width(): number {
    return Math.max(1, Math.min(2, availableParallelism()));
  }

  /** Posts `job` to worker `index` (started if need be, with `heapMb` of old-generation heap). */
  post(index: number, job: ColumnJob, heapMb: number): Posted {
    const slot = this.slot(index, heapMb);
    this.pending++;
    clearTimeout(this.idle);
    const { port1, port2 } = new MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    slot.worker.postMessage({ job, port: port2, flag }, [port2]);
    if (job.op === 'open') slot.opened.add(job.id);
    const now = performance.now();
    return { slot, port: port1, flag, since: now, beat: Atomics.load(slot.status, 0), seen: now };
  }

  /** True when worker `index` runs and has opened file `id`. */
  knows(index: number, id: number): boolean {
    return this.slots[index]?.opened.has(id) ?? false;
  }

  /** The answer of a posted job, waited for asynchronously (a table's open, off the run's path). */
  answer(p: Posted, file: string, caps: DecodeCaps): Promise<ColumnAnswer> {
    return new Promise((resolve, reject) => {
      const timer = setInterval(() => {
        try {
          this.check(p, file, caps);
        } catch (err) {
          clearInterval(timer);
          p.port.close();
          this.done();
          reject(err);
        }
      }, POLL_MS);
      p.port.once('message', (answer: ColumnAnswer) => {
        clearInterval(timer);
        p.port.close();
        this.done();
        resolve(answer);
      });
    });
  }

  /**
   * The answer of a posted job, waited for synchronously on this thread.
   * @throws {DataError} DATA_TOO_LARGE when the worker died near its heap limit, DATA_DECODE_FAILED past `caps.timeoutMs` or after a crash.
   */
  wait(p: Posted, file: string, caps: DecodeCaps): ColumnAnswer {
    try {
      while (Atomics.wait(p.flag, 0, 0, POLL_MS) === 'timed-out') this.check(p, file, caps);
      return this.take(p, file);
    } finally {
      this.done();
    }
  }

  /** A job is answered or given up on: with none left, the workers end after IDLE_MS. */
  private done(): void {
    if (--this.pending > 0) return;
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      if (this.pending > 0) return;
      for (const slot of this.slots) if (slot) this.kill(slot);
    }, IDLE_MS);
    this.idle.unref();
  }

  private take(p: Posted, file: string): ColumnAnswer {
    const got = receiveMessageOnPort(p.port)?.message as ColumnAnswer | undefined;
    p.port.close();
    if (!got) {
      this.kill(p.slot);
      throw new DataError('DATA_DECODE_FAILED', `${file}: the column decoder stopped before answering`, {
        hint: 'The file is damaged or crafted to crash readers; write it again.',
      });
    }
    return got;
  }

  /** Throws (and replaces the worker) when the job is past its deadline or the worker stopped beating. */
  private check(p: Posted, file: string, caps: DecodeCaps): void {
    const now = performance.now();
    const b = Atomics.load(p.slot.status, 0);
    if (p.beat !== b) {
      p.beat = b;
      p.seen = now;
    }
    if (now - p.since > caps.timeoutMs) {
      this.kill(p.slot);
      throw new DataError(
        'DATA_DECODE_FAILED',
        `${file}: decoding a column took longer than ${caps.timeoutMs} ms and was stopped`,
        {
          hint: 'The file is too large or crafted to be slow: split it, or load fewer columns.',
        },
      );
    }
    if (now - p.seen > STALL_MS) {
      const heap = Atomics.load(p.slot.status, 1);
      this.kill(p.slot);
      const oom = heap >= p.slot.heapMb * 0.6;
      const code: DataErrorCode = oom ? 'DATA_TOO_LARGE' : 'DATA_DECODE_FAILED';
      throw new DataError(
        code,
        oom
          ? `${file}: decoding a column needed more than the ${p.slot.heapMb} MB decode heap`
          : `${file}: the column decoder stopped answering`,
        {
          hint: oom
            ? capHint(
                'heapMb',
                caps,
                'The column inflates to more than fits in memory (or is crafted to): split the file.',
              )
            : 'The file is damaged or crafted to crash readers; write it again.',
        },
      );
    }
  }

  private kill(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots[i] = undefined;
    void slot.worker.terminate();
  }

  private slot(index: number, heapMb: number): Slot {
    const have = this.slots[index];
    if (have) return have;
    const status = new Int32Array(new SharedArrayBuffer(8));
    const worker = new Worker(this.script, {
      workerData: { status },
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    worker.unref();
    const slot: Slot = { worker, status, heapMb, opened: new Set() };
    // a worker that ends is forgotten: the next job starts another (files are opened again)
    const drop = () => {
      if (this.slots[index] === slot) this.slots[index] = undefined;
    };
    worker.on('error', drop);
    worker.on('exit', drop);
    this.slots[index] = slot;
    return slot;
  }
}

const pools = new Map<number, ColumnWorkers>();

/** This process's column workers with `heapMb` of decode heap each (one pool for every lazily decoded table with those caps). */
export function columnWorkers(heapMb: number): ColumnWorkers {
  let pool = pools.get(heapMb);
  if (!pool) {
    pool = new ColumnWorkers(
      workerScript(
        import.meta.url,
        'columnWorkers.js',
        new URL('./columnWorker.js', import.meta.url),
        'src/data/formats/lazyParquet/columnWorker.js',
      ),
    );
    pools.set(heapMb, pool);
  }
  return pool;
}
