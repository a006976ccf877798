import { emptyOutcome, type Backend } from './backend.js';
import type { OutputListener, SessionPriority, SourceRunRequest, SessionSpec } from './protocol.js';

/** A backend with a concurrency cap and a bounded wait queue in front (backpressure: QUEUE_FULL). */
export class QueuedBackend implements Backend {
  active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly inner: Backend,
    readonly maxConcurrent: number,
    readonly maxQueue: number,
  ) {}

  get queued(): number {
    return this.waiting.length;
  }

  open(id: string, spec: SessionSpec, priority?: SessionPriority) {
    return this.inner.open(id, spec, priority);
  }

  async run(id: string, req: SourceRunRequest, signal?: AbortSignal, onOutput?: OutputListener) {
    if (this.active >= this.maxConcurrent) {
      // the caller's idle round trip (protocol.ts `warm`) only warms: it never waits for a slot
      if (req.warm) return emptyOutcome('queue_full', 'a warm round trip takes no slot that is busy');
      if (this.waiting.length >= this.maxQueue) {
        return emptyOutcome(
          'queue_full',
          `the pool is busy: ${this.active} runs executing and ${this.waiting.length} waiting (maxQueue ${this.maxQueue})`,
        );
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.active++;
    try {
      return await this.inner.run(id, req, signal, onOutput);
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  close(id: string) {
    return this.inner.close(id);
  }

  liveIsolates() {
    return this.inner.liveIsolates();
  }

  async shutdown() {
    await this.inner.shutdown();
  }
}
