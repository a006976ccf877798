import type { EngineSession } from '../engines/engineSession.js';

/** The process must have been without runs this long before a warm-up step starts. */
const IDLE_MS = 40;

/**
 * Runs the prelude's warm-up (prelude/runtime/warmUp.ts) in the isolates of this process while
 * they are idle: a new session's and every spare's (warmSessions.ts), one step at a time, only
 * when no run is in flight anywhere in the process and none ended in the last IDLE_MS (a step
 * uses a core, and the next run of a session usually follows its last within milliseconds when a
 * program is sent in parts). A run that arrives during a step waits for that step only; the
 * warm-up then waits for the process to be idle again and goes on where it stopped.
 */
export class PreludeWarmer {
  private readonly queue = new Set<EngineSession>();
  private lastActivity = performance.now();
  private timer: NodeJS.Timeout | undefined;
  private looping = false;

  constructor(
    /** True while runs are in flight in this process. */
    private readonly busy: () => boolean,
    /** False in a one-shot holder (SBIRTOOLS_NO_SPARES=1: its one run follows the open at once). */
    private readonly enabled = true,
  ) {}

  /** Warm this session in idle time, until its warm-up is done or it is disposed. */
  add(session: EngineSession): void {
    if (!this.enabled || !session.warmStep) return;
    this.queue.add(session);
    this.touch();
  }

  /** A run started or ended: the next step waits for IDLE_MS of quiet from now. */
  touch(): void {
    this.lastActivity = performance.now();
    if (this.queue.size > 0) this.schedule(IDLE_MS);
  }

  /** Sessions still to warm (tests). */
  get pending(): number {
    return this.queue.size;
  }

  private schedule(ms: number): void {
    if (this.timer || this.looping) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.loop();
    }, ms);
    this.timer.unref();
  }

  private async loop(): Promise<void> {
    this.looping = true;
    try {
      for (const session of this.queue) {
        for (;;) {
          const quiet = performance.now() - this.lastActivity;
          if (this.busy() || quiet < IDLE_MS) {
            this.looping = false;
            return this.schedule(Math.max(1, IDLE_MS - quiet));
          }
          if (!(await session.warmStep!())) break;
        }
        this.queue.delete(session);
      }
    } finally {
      this.looping = false;
    }
  }
}
