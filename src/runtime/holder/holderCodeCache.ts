/**
 * What the holder's loader (scripts/code-cache-boot.mjs, holderBoot.cjs) leaves for the holder: its
 * bundle's V8 code cache is made right after the bundle's top level ran, so the code check (acorn,
 * the policy, the transform: compiled on their first call) is compiled cold by every new holder,
 * 1-8 ms of its first program. `keepWarm` writes the cache again, once, from this process's compiled
 * functions: after a first run and idle time, with the code check's warm programs checked first.
 * Absent when the holder was not started through its loader (tests, the inline backend).
 */
interface BootCodeCache {
  /** The cache this start read holds the code check's functions (or one was written since). */
  readonly warm: boolean;
  /** Write the cache again from the functions compiled now; false when not written (done, read-only). */
  keepWarm(): boolean;
}

const KEY = Symbol.for('sbirtools.holderCodeCache');

function boot(): BootCodeCache | undefined {
  return (globalThis as Record<symbol, BootCodeCache | undefined>)[KEY];
}

/** How long the holder must have had no run before the cache is written (the next question first). */
export const KEEP_WARM_IDLE_MS = 300;

/**
 * Writes the holder's warm code cache once per process, when the process has had no run for
 * KEEP_WARM_IDLE_MS after a run: `warmChecks` first (the code check's warm programs left), then the
 * loader's keepWarm. Never during a run, never twice, nothing when the cache read was warm already.
 */
export class HolderCodeCacheKeeper {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** Milliseconds since a run last started or ended, and whether one is in flight. */
    private readonly idleMs: () => number,
    private readonly running: () => boolean,
    /** Check the code check's warm programs not checked yet in this process. */
    private readonly warmChecks: () => void,
  ) {}

  /** After each run: schedule the write (once) if the cache is not warm yet. */
  afterRun(): void {
    const cache = boot();
    if (!cache || cache.warm || this.timer) return;
    this.timer = setTimeout(() => this.tryNow(cache), KEEP_WARM_IDLE_MS);
    this.timer.unref();
  }

  private tryNow(cache: BootCodeCache): void {
    if (this.running() || this.idleMs() < KEEP_WARM_IDLE_MS) {
      this.timer = setTimeout(() => this.tryNow(cache), KEEP_WARM_IDLE_MS);
      this.timer.unref();
      return;
    }
    try {
      this.warmChecks();
    } catch {
      // the warm programs only warm: the cache is written with whatever was compiled
    }
    cache.keepWarm();
  }
}
