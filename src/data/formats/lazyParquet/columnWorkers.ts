import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
  /** Why the thread ended on its own (it failed to load, or crashed), once its 'error' or 'exit' event came. */
  ended?: { message: string; outOfMemory: boolean };
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

  /** @param stallMs how long a worker may go without a heartbeat before it is taken for dead (tests shorten it). @default STALL_MS */
  constructor(
    private readonly script: URL,
    private readonly stallMs = STALL_MS,
  ) {}

  /** How many workers run now (they end after IDLE_MS without a job). */
  get running(): number {
    return this.slots.filter(Boolean).length;
  }

  /** How many workers a column may be split over. */
  get width(): number {
    return Math.max(1, Math.min(2, availableParallelism()));
  }

  /**
   * Starts `count` workers now (at most `width`), with no job: a session that will open a Parquet
   * or Arrow table calls this first, so the threads load their code while the holder makes the
   * isolate and loads the prelude. Started workers with no job end after IDLE_MS like any idle one.
   */
  start(heapMb: number, count = this.width): void {
    for (let i = 0; i < Math.min(count, this.width); i++) this.slot(i, heapMb);
    if (this.pending === 0) this.idleLater();
  }

  /** Posts `job` to worker `index` (started if need be, with `heapMb` of old-generation heap). */
  post(index: number, job: ColumnJob, heapMb: number): Posted {
    const slot = this.slot(index, heapMb);
    this.pending++;
    clearTimeout(this.idle);
    const { port1, port2 } = new MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    // the beat before the job is posted: the worker may start (and beat) before this thread reads it
    const beat = Atomics.load(slot.status, 0);
    slot.worker.postMessage({ job, port: port2, flag }, [port2]);
    if (job.op === 'open') slot.opened.add(job.id);
    const now = performance.now();
    return { slot, port: port1, flag, since: now, beat, seen: now };
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
      // a thread that fails to load its code (or crashes) says so at once, not after STALL_MS
      const onEnd = () => {
        if (!p.slot.ended) return;
        clearInterval(timer);
        p.port.close();
        this.done();
        reject(endedError(p.slot, file, caps));
      };
      p.slot.worker.once('error', onEnd);
      p.slot.worker.once('exit', onEnd);
      p.port.once('message', (answer: ColumnAnswer) => {
        p.slot.worker.off('error', onEnd);
        p.slot.worker.off('exit', onEnd);
        clearInterval(timer);
        p.port.close();
        this.done();
        resolve(answer);
      });
    });
  }

  /**
   * The answer of a posted job, waited for synchronously on this thread. Past `caps.timeoutMs`
   * from its post it throws at once, not at the next poll: a run's decode-ahead waits on several
   * jobs in turn under the run's own deadline (holder/prefetchTables.ts), and a poll's overshoot per
   * job would add up past the host's kill grace (holderPool.ts KILL_GRACE_MS, 500 ms), which kills
   * the whole holder process instead of ending the run with its TIMEOUT.
   * @throws {DataError} DATA_TOO_LARGE when the worker died near its heap limit, DATA_DECODE_FAILED past `caps.timeoutMs` or after a crash.
   */
  wait(p: Posted, file: string, caps: DecodeCaps): ColumnAnswer {
    try {
      while (Atomics.load(p.flag, 0) === 0) {
        this.check(p, file, caps);
        const toDeadline = p.since + caps.timeoutMs - performance.now();
        Atomics.wait(p.flag, 0, 0, Math.max(1, Math.min(POLL_MS, toDeadline + 1)));
      }
      return this.take(p, file);
    } finally {
      this.done();
    }
  }

  /** A job is answered or given up on: with none left, the workers end after IDLE_MS. */
  private done(): void {
    if (--this.pending > 0) return;
    this.idleLater();
  }

  private idleLater(): void {
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
    if (p.slot.ended) throw endedError(p.slot, file, caps);
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
    if (now - p.seen > this.stallMs) {
      const heap = Atomics.load(p.slot.status, 1);
      this.kill(p.slot);
      const oom = heap >= p.slot.heapMb * 0.6;
      const code: DataErrorCode = oom ? 'DATA_TOO_LARGE' : 'DATA_DECODE_FAILED';
      throw new DataError(
        code,
        oom
          ? `${file}: decoding a column needed more than the ${p.slot.heapMb} MB decode heap`
          : loaded(p.slot)
            ? `${file}: the column decoder stopped answering`
            : `${file}: the column decoder thread could not start within ${this.stallMs / 1000} s`,
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
    slot.ended ??= { message: 'was stopped', outOfMemory: false };
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots[i] = undefined;
    void slot.worker.terminate();
  }

  private slot(index: number, heapMb: number): Slot {
    const have = this.slots[index];
    if (have) return have;
    // [heartbeat, heap MiB, 1 once the script has loaded] (columnWorker.ts)
    const status = new Int32Array(new SharedArrayBuffer(12));
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
    worker.on('error', (err: Error & { code?: string }) => {
      slot.ended ??= {
        message: `${loaded(slot) ? 'crashed' : 'could not start'} (${String(err?.message ?? err).slice(0, 300)})`,
        outOfMemory: err?.code === 'ERR_WORKER_OUT_OF_MEMORY',
      };
      drop();
    });
    worker.on('exit', (code) => {
      slot.ended ??= { message: `ended with exit code ${code}`, outOfMemory: false };
      drop();
    });
    this.slots[index] = slot;
    return slot;
  }
}

/**
 * Why a worker's thread ended, as the error of the job it had: DATA_TOO_LARGE naming the heap
 * setting when it ran out of heap, else DATA_DECODE_FAILED saying what happened.
 */
function endedError(slot: Slot, file: string, caps: DecodeCaps): DataError {
  if (slot.ended?.outOfMemory)
    return new DataError(
      'DATA_TOO_LARGE',
      `${file}: decoding a column needed more than the ${slot.heapMb} MB decode heap`,
      {
        hint: capHint(
          'heapMb',
          caps,
          'The column inflates to more than fits in memory (or is crafted to): split the file.',
        ),
      },
    );
  return new DataError('DATA_DECODE_FAILED', `${file}: the column decoder thread ${slot.ended?.message ?? 'ended'}`, {
    hint: loaded(slot)
      ? 'The file is damaged or crafted to crash readers; write it again.'
      : 'The decoder could not load its code: the sbirtools install is incomplete. Reinstall it (or run `npm run build` in a checkout).',
  });
}

/** True once the worker's script has loaded (it raises `status[2]` first thing). */
function loaded(slot: Slot): boolean {
  return Atomics.load(slot.status, 2) === 1;
}

const pools = new Map<number, ColumnWorkers>();

/** This process's column workers with `heapMb` of decode heap each (one pool for every lazily decoded table with those caps). */
export function columnWorkers(heapMb: number): ColumnWorkers {
  let pool = pools.get(heapMb);
  if (!pool) {
    pool = new ColumnWorkers(
      bundledWorker() ??
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

/**
 * The column worker bundled into one file (dist/holder/columnWorker.cjs, scripts/build-column-worker.mjs):
 * it starts in about a third of the time of its ~90 modules loaded one by one. Beside the holder's
 * bundle when this code runs in it, beside dist/ when it runs compiled, under the package root
 * from src/ (vitest); undefined when no build made it (the compiled module is used then).
 */
function bundledWorker(): URL | undefined {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith(`${sep}holder${sep}holderMain.cjs`)) {
    const beside = new URL('./columnWorker.cjs', import.meta.url);
    return existsSync(beside) ? beside : undefined;
  }
  if (here.endsWith(['', 'dist', 'src', 'data', 'formats', 'lazyParquet', 'columnWorkers.js'].join(sep))) {
    const compiled = new URL('../../../../holder/columnWorker.cjs', import.meta.url);
    return existsSync(compiled) ? compiled : undefined;
  }
  for (let dir = dirname(here); dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'dist', 'holder', 'columnWorker.cjs');
    if (existsSync(file)) return pathToFileURL(file);
    if (existsSync(join(dir, 'package.json'))) return undefined;
  }
  return undefined;
}
