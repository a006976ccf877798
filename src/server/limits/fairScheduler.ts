import { SbirtoolsError } from '../../core/errors.js';
/** Why a run was not admitted by the FairScheduler. */
export class AdmissionError extends SbirtoolsError {
  constructor(
    /** `queue-full`: this identity already waits for `maxQueuedPerKey` runs here; `queue-timeout`: no slot freed within `maxQueueWaitMs`; `aborted`: the client left. */
    readonly reason: 'queue-full' | 'queue-timeout' | 'aborted',
    message: string,
  ) {
    super(reason === 'queue-full' ? 'QUEUE_FULL' : reason === 'queue-timeout' ? 'QUEUE_TIMEOUT' : 'ABORTED', message);
    this.name = 'AdmissionError';
  }
}

/** Options of FairScheduler. */
export interface FairSchedulerOptions {
  /** Runs executing at once on this replica. */
  capacity: number;
  /** Most of those one identity may hold at once (>= 1). */
  maxPerKey: number;
  /** Runs of one identity waiting here before more are refused (`queue-full`). */
  maxQueuedPerKey: number;
  /** Longest a run waits for a slot before it is refused (`queue-timeout`). */
  maxQueueWaitMs: number;
}

/** Half-life of a caller's recorded run time: what it used a minute ago barely counts now. */
const USAGE_HALF_LIFE_MS = 10_000;

interface Waiter {
  grant: () => void;
  fail: (err: AdmissionError) => void;
}

/**
 * Fair admission to this replica's run slots: each identity has its own queue and may hold at most
 * `maxPerKey` of the `capacity` slots; when a slot frees, the waiting identity that used the
 * least run time lately goes next (weighted fair queuing; equal usage falls back to round robin).
 * So one identity's flood waits in (or is refused from) its own queue, an identity with short,
 * occasional runs goes ahead of one that keeps the slots busy, and every other identity finds a
 * free slot or the next one: their latency does not depend on the flood's size.
 * @example
 * const release = await scheduler.acquire(identity.id, request.signal);
 * try { await run(); } finally { release(); }
 */
export class FairScheduler {
  private running = 0;
  private readonly perKey = new Map<string, number>();
  /** Insertion order is the round-robin order; a served key moves to the back. */
  private readonly queues = new Map<string, Waiter[]>();
  /** Run time each identity used, decayed (USAGE_HALF_LIFE_MS); forgotten once it is negligible. */
  private readonly usage = new Map<string, { ms: number; at: number }>();
  /** Start times of each identity's runs in flight: their run time counts before they end. */
  private readonly starts = new Map<string, number[]>();

  constructor(private readonly o: FairSchedulerOptions) {}

  /** Runs executing / waiting on this replica. */
  stats(): { running: number; queued: number; keys: number } {
    let queued = 0;
    for (const q of this.queues.values()) queued += q.length;
    return { running: this.running, queued, keys: this.perKey.size };
  }

  /**
   * Wait for a slot for `key`; resolves with its release function (call it once, in `finally`).
   * @throws {AdmissionError} when the key's queue is full, the wait is over `maxQueueWaitMs`, or `signal` aborts.
   */
  acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    if (this.canRun(key) && !this.queues.has(key)) return Promise.resolve(this.take(key));
    const queue = this.queues.get(key) ?? [];
    if (queue.length >= this.o.maxQueuedPerKey) {
      return Promise.reject(
        new AdmissionError(
          'queue-full',
          `${queue.length} runs of this caller already wait on this replica (limit ${this.o.maxQueuedPerKey})`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const q = this.queues.get(key);
        const i = q?.indexOf(waiter) ?? -1;
        if (i >= 0) q!.splice(i, 1);
        if (q && q.length === 0) this.queues.delete(key);
      };
      const waiter: Waiter = {
        grant: () => {
          done();
          resolve(this.take(key));
        },
        fail: (err) => {
          done();
          reject(err);
        },
      };
      const onAbort = () => waiter.fail(new AdmissionError('aborted', 'the client closed the request while it waited'));
      const timer = setTimeout(
        () => waiter.fail(new AdmissionError('queue-timeout', `no run slot freed within ${this.o.maxQueueWaitMs} ms`)),
        this.o.maxQueueWaitMs,
      );
      timer.unref?.();
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
      this.queues.set(key, queue);
    });
  }

  private canRun(key: string): boolean {
    return this.running < this.o.capacity && (this.perKey.get(key) ?? 0) < this.o.maxPerKey;
  }

  /**
   * Whether `key` used more than an equal share of this replica's run time lately (decayed run
   * time, runs in flight included), while at least one other identity ran here too (in flight,
   * or within about a half-life). Such a
   * caller's code goes to the low-priority holder (budget.ts): the slots it may hold are bounded
   * by `maxPerKey`, and this bounds the CPU those slots take from everyone else. Decided per
   * replica on purpose: CPU is a replica's own; the shared limits are the budget's (Redis).
   */
  overShare(key: string): boolean {
    const now = Date.now();
    let total = 0;
    let mine = 0;
    let active = 0;
    for (const k of new Set([...this.usage.keys(), ...this.starts.keys()])) {
      let ms = this.used(k);
      for (const t of this.starts.get(k) ?? []) ms += now - t;
      active++;
      total += ms;
      if (k === key) mine = ms;
    }
    return active >= 2 && mine > total / active;
  }

  private take(key: string): () => void {
    this.running++;
    this.perKey.set(key, (this.perKey.get(key) ?? 0) + 1);
    const started = Date.now();
    const starts = this.starts.get(key) ?? [];
    starts.push(started);
    this.starts.set(key, starts);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.usage.set(key, { ms: this.used(key) + (Date.now() - started), at: Date.now() });
      starts.splice(starts.indexOf(started), 1);
      if (!starts.length) this.starts.delete(key);
      this.running--;
      const left = (this.perKey.get(key) ?? 1) - 1;
      if (left <= 0) this.perKey.delete(key);
      else this.perKey.set(key, left);
      this.dispatch();
    };
  }

  /** `key`'s decayed run time now. */
  private used(key: string): number {
    const u = this.usage.get(key);
    if (!u) return 0;
    const age = Date.now() - u.at;
    const ms = u.ms * 0.5 ** (age / USAGE_HALF_LIFE_MS);
    // kept a half-life even when tiny: a caller with short runs still counts as active (overShare)
    if (ms < 1 && age > USAGE_HALF_LIFE_MS && !this.perKey.has(key)) this.usage.delete(key);
    return ms;
  }

  /** Fill free slots: each time, the waiting key that used least lately; ties in round-robin order. */
  private dispatch(): void {
    while (this.running < this.o.capacity) {
      let next: [string, Waiter[]] | undefined;
      let least = Infinity;
      for (const entry of this.queues) {
        if (!entry[1].length || !this.canRun(entry[0])) continue;
        const u = this.used(entry[0]);
        if (u < least) [next, least] = [entry, u];
      }
      if (!next) return;
      // the served key goes to the back of the round
      this.queues.delete(next[0]);
      this.queues.set(next[0], next[1]);
      next[1][0]!.grant();
    }
  }
}
