import type { EngineSession, TableProvider } from '../engines/engineSession.js';
import type { EngineLabel } from '../../../schema/engine.js';
import type { SessionSpec } from './protocol.js';
import type { DatasetInfo } from '../../../schema/result.js';

export interface Built {
  session: EngineSession;
  dataset: DatasetInfo | undefined;
  engine: EngineLabel;
  /** Remote data: fetch the columns a run names before it starts. */
  prefetch?: ((names: string[]) => Promise<void>) | undefined;
  /** The caller's tables that decode the columns a run names before it starts (never on a spare). */
  tables?: TableProvider[] | undefined;
  /** Every table the session reads (award_data first), for the idle warm-up's reads. */
  providers?: TableProvider[] | undefined;
}

/** How many distinct session shapes keep a spare (most recently used first). */
const MAX_SHAPES = 2;
/** Boot spares when the process has been idle this long (the caller's first run comes first). */
const REFILL_DELAY_MS = 25;
/**
 * The warm-up's deadline (prelude/runtime/warmUp.ts takes tens of ms); a spare that does not
 * finish within it is disposed, never handed out half warmed.
 */
export const WARM_UP_TIMEOUT_MS = 2_000;
/**
 * A spare is warmed only after the process has had no run in flight, and none start or end, for
 * this long: a session's next question usually follows its last answer within milliseconds (a
 * program after its session's open) or after the model's thinking (seconds); the warm-up must not
 * take the cores from the first case.
 */
const WARM_IDLE_MS = 300;

/** The host's own trivial program, run once in a warmed isolate to compile the run path (never user code). */
export const TRIVIAL_RUN = { code: '0', async: false, lineOffset: 0, resultName: false, timeoutMs: 5_000 } as const;

/**
 * Pre-booted spare isolates, one per recent session shape (data source + limits), so a fresh
 * isolate per run costs a handoff instead of a boot. A spare never ran user code; it is
 * refilled in the background after it is taken, and (when `warmUp` is on) runs the prelude's
 * warm-up once the process is idle, before any run in it, so the session that takes it finds the
 * common paths compiled.
 * Only shapes without caller-provided tables qualify (those carry per-sandbox data).
 */
export class WarmSessions {
  private readonly spares = new Map<string, Promise<Built | undefined>>();
  /** Spares built and not yet warmed, by shape: warmed when the process is idle (warmLater). */
  private readonly cold = new Map<string, Built>();
  /** Warm-ups in flight (a take waits for its spare's: the isolate is busy until it ends). */
  private readonly warming = new Map<Built, Promise<void>>();

  constructor(
    private readonly build: (spec: SessionSpec) => Promise<Built>,
    /** True while runs are in flight: a boot is synchronous on this thread and would delay them. */
    private readonly busy: () => boolean,
    /** False in a one-shot holder (SBIRTOOLS_NO_SPARES=1, set by HolderProcess for `sbirtools run`). */
    private readonly enabled = true,
    /** Run the prelude's warm-up in each spare before a session takes it (SBIRTOOLS_WARM_SPARES=1). */
    private readonly warmUp = false,
    /** Milliseconds since a run last started or ended in this process. */
    private readonly idleMs: () => number = () => Infinity,
  ) {}

  /** A spare for this shape, if one is ready; schedules the next one. */
  async take(spec: SessionSpec): Promise<Built | undefined> {
    const key = keyOf(spec);
    if (key === undefined || !this.enabled) return undefined;
    const spare = this.spares.get(key);
    this.spares.delete(key);
    this.refillLater(key, spec);
    const built = spare ? await spare : undefined;
    if (!built) return undefined;
    // taken before it was warmed: it goes as it is (a session never waits for a warm-up to start)
    if (this.cold.get(key) === built) this.cold.delete(key);
    await this.warming.get(built);
    return built.session.alive ? built : undefined;
  }

  /** Spares alive now (not sessions: they belong to no sandbox). */
  async count(): Promise<number> {
    let n = 0;
    for (const p of this.spares.values()) if ((await p)?.session.alive) n++;
    return n;
  }

  disposeAll(): void {
    for (const p of this.spares.values()) void p.then((b) => b?.session.dispose('closed'));
    this.spares.clear();
    this.cold.clear();
  }

  private refillLater(key: string, spec: SessionSpec): void {
    const timer = setTimeout(() => {
      if (this.spares.has(key)) return;
      if (this.busy()) return this.refillLater(key, spec);
      const spare = this.build(spec)
        .then(async (b) => {
          // warmed when asked, or once while the process has no warm code cache (it is made from this spare)
          if ((this.warmUp || b.session.wantsWarmCodeCache?.()) && b.session.warmUp) {
            this.cold.set(key, b);
            this.warmLater(key);
          } else await this.trivialRun(b);
          return b;
        })
        .catch(() => undefined);
      this.spares.set(key, spare);
      while (this.spares.size > MAX_SHAPES) {
        const oldest = this.spares.keys().next().value as string;
        void this.spares.get(oldest)!.then((b) => b?.session.dispose('closed'));
        this.spares.delete(oldest);
      }
    }, REFILL_DELAY_MS);
    timer.unref();
  }

  /** One trivial run warms the prelude's execute path (lazy compilation, first isolate task). */
  private async trivialRun(b: Built): Promise<void> {
    try {
      await b.session.run(TRIVIAL_RUN);
    } catch (err) {
      b.session.dispose('closed');
      throw err;
    }
  }

  /**
   * Warm the shape's cold spare once the process has been idle for WARM_IDLE_MS, before any run in
   * it (the trivial run comes after: the warm-up is refused once a run has started). A spare whose
   * warm-up fails or times out is disposed, and a take then gets none.
   */
  private warmLater(key: string): void {
    const timer = setTimeout(() => {
      const b = this.cold.get(key);
      if (!b) return;
      if (this.busy() || this.idleMs() < WARM_IDLE_MS) return this.warmLater(key);
      this.cold.delete(key);
      const done = (async () => {
        try {
          if ((await b.session.warmUp!(WARM_UP_TIMEOUT_MS)) && b.session.wantsWarmCodeCache?.())
            b.session.keepWarmCodeCache?.();
          await this.trivialRun(b);
        } catch {
          b.session.dispose('closed');
        } finally {
          this.warming.delete(b);
        }
      })();
      this.warming.set(b, done);
    }, WARM_IDLE_MS);
    timer.unref();
  }
}

function keyOf(spec: SessionSpec): string | undefined {
  if (spec.tables.length > 0) return undefined;
  return JSON.stringify({ data: spec.data, limits: spec.limits, engine: spec.engine ?? 'auto' });
}
