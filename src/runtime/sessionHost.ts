import { reportCatastrophe } from './guestSession.js';
import type { EngineLabel, EngineSession } from './engineSession.js';
import { openEngineSession, resolveEngine } from './openEngineSession.js';
import { TableCache, type TableProvider } from './tableProviders.js';
import type { GuestRunRequest, RawRunOutcome, SessionSpec } from './protocol.js';
import type { DatasetInfo } from '../../schema/result.js';
import { WarmSessions } from './warmSessions.js';

/** How far the process RSS may grow during a run, as a multiple of the run's memory limit. */
const RSS_FACTOR = 1.5;
/**
 * Past this multiple the runs did not stop when their isolates were disposed (a builtin that
 * ignores termination, memory outside the heap): the process itself must end (reportCatastrophe).
 */
const RSS_HARD_FACTOR = 1.7;
const WATCH_INTERVAL_MS = 10;

interface Entry {
  spec: SessionSpec;
  session: EngineSession;
  dataset: DatasetInfo | undefined;
  engine: EngineLabel;
}

/**
 * The isolates of one process, by session id. Runs the memory watchdog: isolated-vm's limit can
 * be overshot 2-3x by hostile code and misses memory outside the V8 heap, so while runs are in
 * flight the process RSS is sampled and an offending isolate is disposed (MEMORY_LIMIT).
 */
export class SessionHost {
  private readonly sessions = new Map<string, Entry>();
  private readonly tables = new TableCache();
  private watch: NodeJS.Timeout | undefined;
  private baselineRss = 0;
  /** This process's own memory (main isolate heap + Node buffers: loaded columns) at watch start. */
  private baselineOwn = 0;
  private hardLimitReported = false;

  private readonly warm = new WarmSessions(
    (spec) => this.build(spec),
    () => [...this.sessions.values()].some((e) => e.session.isRunning),
  );

  async open(id: string, spec: SessionSpec): Promise<{ dataset: DatasetInfo | undefined; engine: EngineLabel }> {
    this.close(id);
    const { session, dataset, engine } = (await this.warm.take(spec)) ?? (await this.build(spec));
    this.sessions.set(id, { spec, session, dataset, engine });
    return { dataset, engine };
  }

  /** Spare pre-booted isolates (they belong to no session). */
  spareIsolates(): Promise<number> {
    return this.warm.count();
  }

  private async build(spec: SessionSpec): Promise<{ session: EngineSession; dataset: DatasetInfo | undefined; engine: EngineLabel }> {
    // resolved first: an engine that cannot load is the caller's error, before any data is opened
    const engine = await resolveEngine(spec.engine);
    const providers: TableProvider[] = [];
    let dataset: DatasetInfo | undefined;
    if (spec.data) {
      const award = await this.tables.award(spec.data);
      providers.push(award.provider);
      dataset = award.info;
    }
    for (const t of spec.tables) providers.push(await this.tables.table(t));
    const session = await openEngineSession(engine, spec.limits, providers, dataset);
    return { session, dataset, engine: engine.label };
  }

  /** Run in an open session; reopens it first when a limit disposed its isolate. */
  async run(id: string, req: GuestRunRequest): Promise<RawRunOutcome & { reset: boolean }> {
    const entry = this.sessions.get(id);
    if (!entry) throw new Error(`no open session ${id}`);
    let reset = false;
    if (!entry.session.alive) {
      await this.open(id, entry.spec);
      reset = true;
    }
    const current = this.sessions.get(id)!;
    this.startWatch();
    try {
      return { ...(await current.session.run(req)), engine: current.engine, reset };
    } finally {
      this.stopWatchIfIdle();
    }
  }

  /** Cancel the run in flight: the isolate is disposed, the session is rebuilt on its next run. */
  abort(id: string): void {
    this.sessions.get(id)?.session.dispose('aborted');
  }

  close(id: string): void {
    const entry = this.sessions.get(id);
    if (!entry) return;
    this.sessions.delete(id);
    entry.session.dispose('closed');
  }

  closeAll(): void {
    this.warm.disposeAll();
    for (const id of [...this.sessions.keys()]) this.close(id);
  }

  /** Live isolates in this process (the leak check asserts 0 after each test). */
  get liveIsolates(): number {
    let n = 0;
    for (const e of this.sessions.values()) if (e.session.alive) n++;
    return n;
  }

  private startWatch(): void {
    if (this.watch) return;
    const m = process.memoryUsage();
    this.baselineRss = m.rss;
    this.baselineOwn = m.heapUsed + m.arrayBuffers;
    this.hardLimitReported = false;
    this.watch = setInterval(() => this.checkMemory(), WATCH_INTERVAL_MS);
    this.watch.unref();
  }

  private stopWatchIfIdle(): void {
    if (!this.watch) return;
    for (const e of this.sessions.values()) if (e.session.isRunning) return;
    clearInterval(this.watch);
    this.watch = undefined;
  }

  private checkMemory(): void {
    // Runs whose isolate was already disposed still count until they return: their thread may
    // be stuck in a builtin that keeps allocating.
    const running = [...this.sessions.values()].filter((e) => e.session.isRunning);
    if (running.length === 0) return;
    // Only process-wide figures are read here: per-isolate heap statistics need the isolate's lock
    // and would block this thread behind a busy isolate. The heap itself is isolated-vm's
    // memoryLimit; this catches what it misses (overshoot, memory outside the V8 heap). Growth of
    // this process's own heap and buffers (columns loaded for the guest) is not the guest's.
    // The offender cannot be told apart from the process figure, so every run in flight is stopped.
    const m = process.memoryUsage();
    const own = Math.max(0, m.heapUsed + m.arrayBuffers - this.baselineOwn);
    const grown = m.rss - this.baselineRss - own;
    const limits = running.reduce((sum, e) => sum + e.spec.limits.memoryLimitMb, 0) * 1048576;
    if (grown > limits * RSS_HARD_FACTOR && !this.hardLimitReported) {
      this.hardLimitReported = true;
      reportCatastrophe(`out of memory: the process grew ${mb(grown)} MB during runs limited to ${mb(limits)} MB and disposing their isolates did not stop it`, 'oom');
    }
    if (grown > limits * RSS_FACTOR) {
      for (const e of running) if (e.session.alive) e.session.dispose('memory');
    }
  }
}

function mb(bytes: number): number {
  return Math.round(bytes / 1048576);
}
