import { availableParallelism } from 'node:os';
import type { RunResult } from '../../schema/result.js';
import { HolderPool, LOW_PRIORITY_NICE } from '../runtime/holder/holderPool.js';
import { QueuedBackend } from '../runtime/holder/queuedBackend.js';
import { SbirtoolsValidationError } from '../core/errors.js';
import { createSandbox, run, type OneShotOptions, type Sandbox } from './sandbox.js';
import type { SandboxOptions } from './options.js';

/** Options of createPool(). */
export interface PoolOptions {
  /**
   * Holder processes; each runs several isolates at once on its own threads, so one holder
   * already uses several cores, and every holder loads its own copy of the columns its sessions
   * read. Measured with 8 sessions on 2 cores (docs/benchmarks.md): one holder answered 1.3-2x
   * more questions per second than two, with ~15% less memory. More holders buy containment (a
   * holder lost to a fatal error takes only its own sessions along), not speed.
   * @default Math.ceil(os.availableParallelism() / 2)
   */
  size?: number;
  /** Runs executing at once across the pool. @default size * 2 (with the default size: one per core) */
  maxConcurrent?: number;
  /** Runs waiting for a slot before new ones get QUEUE_FULL. @default 64 */
  maxQueue?: number;
  /**
   * CPU scheduling priority (`nice`, 1-19) of the holder process that sandboxes created with
   * `priority: 'low'` live in (one more process, started on first use); 0 puts them in the
   * ordinary holders.
   * @default 10
   */
  lowPriorityNice?: number;
  /**
   * Whether the holders run the prelude's warm-up in each spare isolate before a session takes it
   * (docs/architecture.md "Spare isolates and the warm-up"): tens of ms of idle-time CPU per spare.
   * Opt-in: measured, it sped some first questions of the session that takes the spare (a column's
   * sum, group-by rollups) and slowed others (`value_counts`). Never runs after user code.
   * @default false, unless the environment sets SBIRTOOLS_WARM_SPARES=1
   */
  warmSpares?: boolean;
}

/**
 * Isolates spread over several holder processes (cores), with a bounded queue. Same run/session
 * API as the library; a full queue answers with a `QUEUE_FULL` result (backpressure).
 */
export class Pool {
  /** @internal */
  readonly backend: QueuedBackend;
  private readonly holders: HolderPool;
  private closed = false;

  constructor(options: PoolOptions = {}) {
    if (options === null || typeof options !== 'object' || Array.isArray(options))
      throw new SbirtoolsValidationError('Expected createPool options to be an object');
    for (const key of Object.keys(options)) {
      if (!['size', 'maxConcurrent', 'maxQueue', 'lowPriorityNice', 'warmSpares'].includes(key))
        throw new SbirtoolsValidationError(
          `Unknown option \`${key}\`. Known createPool options: size, maxConcurrent, maxQueue, lowPriorityNice, warmSpares.`,
        );
    }
    const size = checkInt('size', options.size ?? Math.max(1, Math.ceil(availableParallelism() / 2)), 1);
    const nice = checkInt('lowPriorityNice', options.lowPriorityNice ?? LOW_PRIORITY_NICE, 0);
    if (nice > 19)
      throw new SbirtoolsValidationError(
        `Expected the \`lowPriorityNice\` option to be an integer 0-19, got \`${nice}\``,
      );
    if (options.warmSpares !== undefined && typeof options.warmSpares !== 'boolean')
      throw new SbirtoolsValidationError(
        `Expected the \`warmSpares\` option to be true or false, got \`${String(options.warmSpares)}\``,
      );
    this.holders = new HolderPool(size, nice, options.warmSpares);
    this.backend = new QueuedBackend(
      this.holders,
      checkInt('maxConcurrent', options.maxConcurrent ?? size * 2, 1),
      checkInt('maxQueue', options.maxQueue ?? 64, 0),
    );
  }

  /** A session sandbox whose isolate lives on this pool. */
  createSandbox(options: Omit<SandboxOptions, 'pool'> = {}): Promise<Sandbox> {
    this.assertOpen();
    return createSandbox({ ...options, pool: this });
  }

  /** One-shot run on this pool: a fresh isolate, disposed afterwards. */
  run(code: string, options: Omit<OneShotOptions, 'pool'> = {}): Promise<RunResult> {
    this.assertOpen();
    return run(code, { ...options, pool: this });
  }

  /** Queue and process figures. */
  stats(): { active: number; queued: number; maxConcurrent: number; maxQueue: number; pids: number[] } {
    const b = this.backend;
    return {
      active: b.active,
      queued: b.queued,
      maxConcurrent: b.maxConcurrent,
      maxQueue: b.maxQueue,
      pids: this.holders.pids(),
    };
  }

  /** Isolates alive in this pool's holders. */
  liveIsolates(): Promise<number> {
    return this.backend.liveIsolates();
  }

  /** Stop every holder process. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.backend.shutdown();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new SbirtoolsValidationError('This pool is closed: create a new one with createPool().');
  }
}

function checkInt(name: string, v: unknown, min: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
    throw new SbirtoolsValidationError(
      `Expected the \`${name}\` option to be an integer >= ${min}, got \`${String(v)}\``,
    );
  }
  return v;
}

/**
 * Create a pool of holder processes.
 * @example
 * await using pool = createPool({ size: 2 });
 * const r = await pool.run("award_data.numRows()");
 */
export function createPool(options: PoolOptions = {}): Pool {
  return new Pool(options);
}
