import type { EngineSession } from '../engines/engineSession.js';
import { WARM_UP_TIMEOUT_MS } from './warmSessions.js';

/**
 * How long the process must have had no run (none in flight, none started or ended) and the
 * session been open before its warm-up starts, or goes on after a pause. A program that follows
 * its session's open at once (a one-shot `run(code)`, a serverless request, an MCP call that opens
 * its session) arrives within a few ms and finds the isolate untouched; an agent's first question
 * follows its model's thinking (hundreds of ms to seconds), which this window uses.
 */
export const IDLE_WARM_MS = 100;

/** What a session's idle warm-up needs of its host (SessionHost). */
export interface IdleWarmHooks {
  /** The session's engine session now (a failed slice replaces it), or undefined once it is closed. */
  session(): EngineSession | undefined;
  /** True while the process has had no run in flight, started or ended for IDLE_WARM_MS. */
  idle(): boolean;
  /**
   * One more program of the code check's warm-up on this thread; false when none was left (once
   * per process), and the slice's time on this thread is free for warmReads.
   */
  checkOne(): boolean;
  /**
   * The session's tables' column read paths, run once each (TableProvider.warmReads), keeping
   * nothing: the first slice whose code check had nothing left to do calls it, once.
   */
  warmReads(): void;
  /** After each slice that ran: the isolate grew (the memory watchdog's baseline is stale). */
  afterSlice(): void;
  /**
   * After the last slice: one run of the host's own trivial program (`0`), as a spare gets
   * (warmSessions.ts trivialRun), so the first run finds the run path compiled too. True when it
   * answered; a run that did not leaves the isolate to `failed`.
   */
  trivialRun(session: EngineSession): Promise<boolean>;
  /**
   * A slice failed or timed out in `session`: its state is unknown. The host disposes it and builds
   * the session again, cold (a run that arrived meanwhile waits for that, never sees the isolate).
   */
  failed(session: EngineSession): Promise<void>;
}

/**
 * Warms one session's isolate in idle time after its open (docs/architecture.md "Spare isolates and
 * the warm-up"): once the process has been idle for IDLE_WARM_MS, the prelude's warm-up runs one
 * slice (one question) per call into the isolate and the code check's warm-up one program per
 * slice on this thread (both at once, on two threads), one slice per macrotask. A run stops it at
 * the next slice boundary (stop()) and waits at most for the slice in flight, then runs in a
 * partly warmed isolate; a run elsewhere in the process pauses it. The engine refuses a slice once
 * any run has started in the isolate, so the warm-up's code never shares it with user code.
 */
export class IdleWarmUp {
  private next = 0;
  private stopped = false;
  /** stop() was called: no trivial run after the slice in flight. */
  private runArrived = false;
  /** warmReads was called (once per session). */
  private readsWarmed = false;
  private timer: NodeJS.Timeout | undefined;
  /** The slice in flight, and the rebuild after it when it failed: a run waits for it. */
  private inFlight: Promise<void> | undefined;

  constructor(private readonly hooks: IdleWarmHooks) {
    this.later();
  }

  /** Slices started so far (tests count them; nothing times them). */
  get slices(): number {
    return this.next;
  }

  /**
   * Start no slice after this one (a run arrived, or the session closed). Returns the slice in
   * flight, with the rebuild after it if it fails (undefined when none is), for the run to wait on.
   */
  stop(): Promise<void> | undefined {
    this.stopped = true;
    this.runArrived = true;
    clearTimeout(this.timer);
    return this.inFlight;
  }

  private later(): void {
    this.timer = setTimeout(() => void this.step(), IDLE_WARM_MS);
    this.timer.unref();
  }

  private async step(): Promise<void> {
    if (this.stopped) return;
    if (!this.hooks.idle()) return this.later();
    const session = this.hooks.session();
    if (!session?.alive || !session.warmSlice) {
      this.stopped = true;
      return;
    }
    const slice = this.one(session, this.next++);
    this.inFlight = slice;
    await slice;
    this.inFlight = undefined;
    // one slice per macrotask: a run's request that came in meanwhile is read before the next starts
    if (!this.stopped) setImmediate(() => void this.step()).unref();
  }

  private async one(session: EngineSession, slice: number): Promise<void> {
    const isolate = session.warmSlice!(slice, WARM_UP_TIMEOUT_MS);
    isolate.catch(() => undefined); // awaited below, after this thread's part
    // this thread's half of the slice: a program of the code check, or once they ran, the reads
    let checked = true;
    try {
      checked = this.hooks.checkOne();
    } catch {
      // the code check's warm-up only warms: a program it cannot check is not this session's failure
    }
    if (!checked && !this.readsWarmed) {
      this.readsWarmed = true;
      try {
        this.hooks.warmReads();
      } catch {
        // only warms: a column the read path refuses fails the run that reads it, with its own error
      }
    }
    try {
      const outcome = await isolate;
      if (outcome !== 'more') this.stopped = true;
      if (outcome !== 'refused') this.hooks.afterSlice();
      // the whole warm-up ran and no run yet: this isolate can give the process its warm code cache
      if (outcome === 'done' && !this.runArrived) session.keepWarmCodeCache?.();
      // the last slice: the run path too, unless a run is already waiting (it warms that itself)
      if (outcome === 'done' && !this.runArrived && !(await this.hooks.trivialRun(session)))
        throw new Error('the trivial run did not answer');
    } catch {
      this.stopped = true;
      await this.hooks.failed(session);
    }
  }
}
