/** What a caller was told when it was refused: why, and when it may come back. */
export interface Refusal {
  /** When the Retry-After it was given runs out (ms since the epoch). */
  until: number;
  /** Why the caller was refused (without what it meant for that request), repeated to a caller that comes back before `until`. */
  message: string;
  /** The metrics label of the original refusal (`per-minute`, `concurrency`, `queue`). */
  reason: string;
}

/** Limits of a RefusalPacer. */
export interface RefusalPacerLimits {
  /** Longest one early caller's refusal is held before it is sent (0: sent at once). */
  maxRefusalHoldMs: number;
  /** Refusals held at once on this replica; past it the next is sent at once, with `Connection: close`. */
  maxHeldRefusals: number;
}

/** Identities remembered at once (expired ones are dropped first). */
const MAX_REMEMBERED = 10_000;

/**
 * The callers this replica refused (429) and the Retry-After each was given. A caller that comes
 * back before it is refused again without a look (no body read, no Redis, no queue), and its
 * refusal is held until its Retry-After runs out (at most `maxRefusalHoldMs`): a client that
 * ignores Retry-After then gets one answer per Retry-After per connection, whatever its loop, and
 * a client that honours it is never held. Holding costs an open socket and a timer, bounded by
 * `maxHeldRefusals`.
 * @example
 * const early = pacer.early(id);
 * if (early) { await pacer.hold(early, request.signal); return refuse(early); }
 */
export class RefusalPacer {
  private readonly refused = new Map<string, Refusal>();
  private heldNow = 0;
  private readonly timers = new Set<() => void>();

  constructor(private readonly o: RefusalPacerLimits) {}

  /** Remember that `id` was refused and told to retry after `retryMs`. */
  remember(id: string, retryMs: number, message: string, reason: string): void {
    const now = Date.now();
    if (this.refused.size >= MAX_REMEMBERED)
      for (const [k, r] of this.refused) if (r.until <= now) this.refused.delete(k);
    if (this.refused.size >= MAX_REMEMBERED && !this.refused.has(id)) return;
    const until = now + retryMs;
    const had = this.refused.get(id);
    // a shorter refusal (concurrency, 1 s) never cuts a longer one (the minute) short
    if (!had || had.until < until) this.refused.set(id, { until, message, reason });
  }

  /** The refusal `id` is still inside, or undefined once its Retry-After has run out. */
  early(id: string): Refusal | undefined {
    const r = this.refused.get(id);
    if (!r) return undefined;
    if (r.until > Date.now()) return r;
    this.refused.delete(id);
    return undefined;
  }

  /** Refusals held now (for the metrics and tests). */
  get held(): number {
    return this.heldNow;
  }

  /**
   * Wait until `r.until` (at most `maxRefusalHoldMs`), or until the client leaves or the replica
   * closes. False when the cap of held refusals is reached: send at once, and close the connection.
   */
  async hold(r: Refusal, signal?: AbortSignal): Promise<boolean> {
    const ms = Math.min(r.until - Date.now(), this.o.maxRefusalHoldMs);
    if (ms <= 0) return true;
    if (this.heldNow >= this.o.maxHeldRefusals) return false;
    this.heldNow++;
    try {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          this.timers.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal?.addEventListener('abort', done, { once: true });
        this.timers.add(done);
      });
    } finally {
      this.heldNow--;
    }
    return true;
  }

  /** Send every held refusal now (the replica is closing). */
  releaseAll(): void {
    for (const done of [...this.timers]) done();
  }
}
