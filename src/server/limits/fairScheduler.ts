import { SbirtoolsError } from '../../core/errors.js';
import { RunTimeLedger } from './runTimeLedger.js';
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
  /** Runs executing at once on this replica at normal priority. */
  capacity: number;
  /**
   * Runs executing at once in the low-priority lane: the runs of callers over their fair share of
   * run time (RunTimeLedger.overShare), in a holder the kernel serves last. 0: no lane, every run
   * takes a normal slot.
   */
  lowCapacity: number;
  /** Most slots one identity may hold at once, both lanes together (>= 1). */
  maxPerKey: number;
  /** Runs of one identity waiting here before more are refused (`queue-full`). */
  maxQueuedPerKey: number;
  /** Longest a run waits for a slot before it is refused (`queue-timeout`). */
  maxQueueWaitMs: number;
}

/**
 * A slot: release it once, in `finally`, with the CPU time the run used (RunResult.stats.cpuMs;
 * without it the wall time is charged); `low` says it is in the low-priority lane.
 */
export interface Grant {
  release: (cpuMs?: number) => void;
  low: boolean;
}

/** A caller whose run time is over this multiple of the other callers' average runs in the low-priority lane. */
const OVER_SHARE = 2;

interface Waiter {
  grant: (low: boolean) => void;
  fail: (err: AdmissionError) => void;
}

/**
 * Fair admission to this replica's run slots: each identity has its own queue and may hold at most
 * `maxPerKey` slots; when a slot frees, the waiting identity that used the least run time (CPU) lately
 * goes next (weighted fair queuing; equal usage falls back to round robin). So one identity's
 * flood waits in (or is refused from) its own queue, an identity with short, occasional runs goes
 * ahead of one that keeps the slots busy, and every other identity finds a free slot or the next
 * one: their latency does not depend on the flood's size.
 *
 * A slot bounds runs, not CPU: a CPU-bound flood in its slot still takes a core. So with a
 * low-priority lane (`lowCapacity` > 0), an identity that used more than its fair share of run
 * time gets its slots there only: the caller runs its code in the low-priority holder, and the
 * normal slots and the cores stay with the others (docs/deploy.md, "Fairness").
 * @example
 * const { release, low } = await scheduler.acquire(identity.id, request.signal);
 * try { await run({ priority: low ? 'low' : 'normal' }); } finally { release(); }
 */
export class FairScheduler {
  private readonly running = { normal: 0, low: 0 };
  private readonly perKey = new Map<string, number>();
  /** Insertion order is the round-robin order; a served key moves to the back. */
  private readonly queues = new Map<string, Waiter[]>();
  private readonly ledger = new RunTimeLedger();
  /** Identities in the low-priority lane now (see laneOf). */
  private readonly lowKeys = new Set<string>();

  constructor(private readonly o: FairSchedulerOptions) {}

  /** Runs executing (both lanes) / waiting on this replica. */
  stats(): { running: number; queued: number; keys: number } {
    let queued = 0;
    for (const q of this.queues.values()) queued += q.length;
    return { running: this.running.normal + this.running.low, queued, keys: this.perKey.size };
  }

  /**
   * Wait for a slot for `key`; resolves with the grant (release it once, in `finally`).
   * @throws {AdmissionError} when the key's queue is full, the wait is over `maxQueueWaitMs`, or `signal` aborts.
   */
  acquire(key: string, signal?: AbortSignal): Promise<Grant> {
    if (!this.queues.has(key)) {
      const low = this.laneOf(key);
      if (this.canRun(key, low)) return Promise.resolve(this.take(key, low));
    }
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
        grant: (low) => {
          done();
          resolve(this.take(key, low));
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

  /**
   * Whether `key`'s next run belongs in the low-priority lane. A caller goes there once it used
   * more than OVER_SHARE times the average run time of the other active callers, and comes back
   * once it used no more than their average: the gap keeps a caller near the line from moving
   * its sessions back and forth (each move rebuilds them, budget.ts), and callers with similar
   * loads all stay in the normal lane.
   */
  private laneOf(key: string): boolean {
    if (this.o.lowCapacity === 0) return false;
    const ratio = this.ledger.shareRatio(key);
    if (ratio > OVER_SHARE) this.lowKeys.add(key);
    else if (ratio <= 1) this.lowKeys.delete(key);
    return this.lowKeys.has(key);
  }

  private canRun(key: string, low: boolean): boolean {
    const room = low ? this.running.low < this.o.lowCapacity : this.running.normal < this.o.capacity;
    return room && (this.perKey.get(key) ?? 0) < this.o.maxPerKey;
  }

  private take(key: string, low: boolean): Grant {
    const lane = low ? 'low' : 'normal';
    this.running[lane]++;
    this.perKey.set(key, (this.perKey.get(key) ?? 0) + 1);
    const end = this.ledger.start(key);
    // forget the lane of callers the ledger forgot (bounded by the callers active lately)
    for (const k of this.lowKeys) if (!this.ledger.knows(k)) this.lowKeys.delete(k);
    let released = false;
    const release = (cpuMs?: number) => {
      if (released) return;
      released = true;
      end(cpuMs);
      this.running[lane]--;
      const left = (this.perKey.get(key) ?? 1) - 1;
      if (left <= 0) this.perKey.delete(key);
      else this.perKey.set(key, left);
      this.dispatch();
    };
    return { release, low };
  }

  /** Fill free slots of both lanes: each time, the waiting key that used least lately; ties in round-robin order. */
  private dispatch(): void {
    for (;;) {
      let next: [string, Waiter[]] | undefined;
      let nextLow = false;
      let least = Infinity;
      for (const entry of this.queues) {
        if (!entry[1].length) continue;
        const low = this.laneOf(entry[0]);
        if (!this.canRun(entry[0], low)) continue;
        const u = this.ledger.used(entry[0]);
        if (u < least) [next, nextLow, least] = [entry, low, u];
      }
      if (!next) return;
      // the served key goes to the back of the round
      this.queues.delete(next[0]);
      this.queues.set(next[0], next[1]);
      next[1][0]!.grant(nextLow);
    }
  }
}
