import { reportCatastrophe } from '../engines/isolated-vm/isolatedVmSession.js';
import type { EngineSession, TableProvider } from '../engines/engineSession.js';
import { prefetchTables, prefetchTimeout } from './prefetchTables.js';
import type { EngineLabel } from '../../../schema/engine.js';
import type { RawRunOutcome } from '../../../schema/outcome.js';
import { openEngineSession, resolveEngine } from '../engines/openEngineSession.js';
import { startColumnWorkers, TableCache } from './tableProviders.js';
import type { OutputListener, SessionSpec, SourceRunRequest } from './protocol.js';
import { CodeChecker, INLINE_CHECK_MAX_UNITS, parseTimeout } from '../prepare/codeChecker.js';
import { prepareCode, type PreparedCode } from '../prepare/transform.js';
import { withRunForm } from '../prepare/runForm.js';
import { emptyOutcome } from './backend.js';
import type { DatasetInfo } from '../../../schema/result.js';
import { TRIVIAL_RUN, WARM_UP_TIMEOUT_MS, WarmSessions, type Built } from './warmSessions.js';
import { tableMemory } from '../../data/formats/lazyParquet/tableMemory.js';
import { collectColumnNames, namedColumns } from '../../policy/index.js';
import { usePreludeCodeCacheDir } from '../engines/preludeScript.js';
import { processMemory } from './processMemory.js';
import { IDLE_WARM_MS, IdleWarmUp } from './idleWarmUp.js';
import { WARM_PROGRAMS } from '../prepare/warmPrograms.js';
import { HolderCodeCacheKeeper } from './holderCodeCache.js';

/**
 * The answer to the caller's idle round trip (protocol.ts `warm`): shaped as a run of `0` answers,
 * so the caller's reply path runs as for a run, but marked as never having reached the isolate.
 */
const WARM_ROUND_TRIP: RawRunOutcome = {
  status: 'ok',
  outcomeJson: JSON.stringify({ ok: true, valueText: '0', value: 0, truncatedValue: false, truncatedOutput: false }),
  stdout: '',
  stderr: '',
  outputTruncated: false,
  stats: { wallMs: 0, cpuMs: 0, heapUsedMb: 0 },
  codeRan: false,
};

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
  /** Remote data: fetch the columns a run names before it starts (tableProviders.ts). */
  prefetch?: ((names: string[]) => Promise<void>) | undefined;
  /** Lazily decoded tables (Parquet, Arrow): the columns a run names are decoded together before it starts. */
  tables?: TableProvider[] | undefined;
  /** Every table the session reads (award_data first): the idle warm-up runs their read paths. */
  providers?: TableProvider[] | undefined;
  /**
   * What the functions the session's runs made may read when called (prepare/localize.ts
   * functionReads): a later run keeps those names global instead of localizing them.
   */
  functionReads: Set<string> | 'all';
  /**
   * keepGlobal's preparations by source (most recently used last), made under `functionReads` as it
   * is: emptied when a run adds a name to it, so a program asked again is not parsed again each run.
   */
  keptGlobal: Map<string, PreparedCode>;
  /** The session's warm-up in idle time, until its first run (idleWarmUp.ts). */
  idleWarm?: IdleWarmUp | undefined;
  /** A run waiting for the idle warm-up's slice in flight; `aborted` once abort() was called meanwhile. */
  waiting?: { aborted: boolean } | undefined;
}

/**
 * The isolates of one process, by session id. Runs the memory watchdog: isolated-vm's limit can
 * be overshot 2-3x by hostile code and misses memory outside the V8 heap, so while runs are in
 * flight the process RSS is sampled and an offending isolate is disposed (MEMORY_LIMIT).
 */
export class SessionHost {
  private readonly sessions = new Map<string, Entry>();
  private readonly tables = new TableCache();
  private readonly checker = new CodeChecker();
  private watch: NodeJS.Timeout | undefined;
  private baselineRss = 0;
  /** tableMemory.grownBytes at the baseline. */
  private baselineTables = 0;
  /** This process's own memory (main isolate heap + Node buffers: loaded columns) at watch start. */
  private baselineOwn = 0;
  /** The highest own figure seen since the baseline (see checkMemory). */
  private peakOwn = 0;
  private hardLimitReported = false;
  /** The baseline was measured while no run was in flight and none has started since. */
  private baselineFresh = false;

  private readonly warm = new WarmSessions(
    (spec) => this.build(spec),
    () => [...this.sessions.values()].some((e) => e.session.isRunning),
    process.env.SBIRTOOLS_NO_SPARES !== '1',
    process.env.SBIRTOOLS_WARM_SPARES === '1',
    () => performance.now() - this.lastRunEdge,
  );
  /** When a run last started or ended here (the spares' warm-up waits for idle: warmSessions.ts). */
  private lastRunEdge = 0;
  /**
   * Warm a session built at its open (no spare was ready) before the open returns: opt-in,
   * SBIRTOOLS_WARM_OPEN=1. Off by default: a one-shot `run(code)`, a serverless request or an MCP
   * call that opens its session pays the open on the question's own path, where the warm-up costs
   * more than the first program saves (docs/benchmarks.md "A fresh session's first run, warmed at
   * the open (session 14)"); it pays off for a caller who opens a session ahead of its questions.
   */
  private readonly warmOpen = process.env.SBIRTOOLS_WARM_OPEN === '1';
  /**
   * Warm a session built at its open in idle time after the open, before its first run (on by
   * default; idleWarmUp.ts): off with SBIRTOOLS_WARM_IDLE=0 and in a one-shot holder (`sbirtools
   * run`: SBIRTOOLS_NO_SPARES=1, its run follows the open at once), and needless when the open
   * warmed it already (SBIRTOOLS_WARM_OPEN=1).
   */
  private readonly warmIdle =
    process.env.SBIRTOOLS_WARM_IDLE !== '0' && process.env.SBIRTOOLS_NO_SPARES !== '1' && !this.warmOpen;
  /** How many of the code check's warm programs ran in this process (once each is enough: the same code for every session). */
  private checkerWarmed = 0;
  /** The holder bundle's code cache written again with the code check compiled, once (holderCodeCache.ts). */
  private readonly codeCache = new HolderCodeCacheKeeper(
    () => performance.now() - this.lastRunEdge,
    () => [...this.sessions.values()].some((e) => e.session.isRunning),
    () => {
      if (this.checkerWarmed < WARM_PROGRAMS.length) this.checker.warmUp(this.checkerWarmed);
      this.checkerWarmed = WARM_PROGRAMS.length;
    },
  );

  /**
   * Open the session `id` (closing one of that id first). `warmIdle` false: no warm-up in idle time
   * (a run reopens its disposed session and runs at once).
   */
  async open(
    id: string,
    spec: SessionSpec,
    warmIdle = true,
  ): Promise<{ dataset: DatasetInfo | undefined; engine: EngineLabel }> {
    this.close(id);
    const spare = await this.warm.take(spec);
    const { session, dataset, engine, prefetch, tables, providers } =
      spare ?? (await this.warmed(await this.build(spec), spec));
    const entry: Entry = {
      spec,
      session,
      dataset,
      engine,
      prefetch,
      tables,
      providers,
      functionReads: new Set(),
      keptGlobal: new Map(),
    };
    this.sessions.set(id, entry);
    // a spare has run already (warmSessions.ts trivialRun): the engine would refuse its warm-up
    if (!spare && warmIdle && this.warmIdle && session.warmSlice) entry.idleWarm = this.idleWarmUp(id, entry);
    return { dataset, engine };
  }

  /** The warm-up of `entry`'s isolate in idle time (idleWarmUp.ts), started now, stopped by its first run. */
  private idleWarmUp(id: string, entry: Entry): IdleWarmUp {
    const opened = performance.now();
    return new IdleWarmUp({
      session: () => (this.sessions.get(id) === entry ? entry.session : undefined),
      idle: () =>
        ![...this.sessions.values()].some((e) => e.session.isRunning) &&
        performance.now() - Math.max(this.lastRunEdge, opened) >= IDLE_WARM_MS,
      checkOne: () => {
        if (this.checkerWarmed >= WARM_PROGRAMS.length) return false;
        this.checker.warmUp(this.checkerWarmed, ++this.checkerWarmed);
        return true;
      },
      warmReads: () => {
        for (const p of entry.providers ?? []) p.warmReads?.();
      },
      // the isolate grew between runs: the next run's baseline is measured when it starts
      afterSlice: () => {
        this.baselineFresh = false;
      },
      failed: (session) => this.rebuildCold(id, entry, session),
      trivialRun: async (session) => (await session.run(TRIVIAL_RUN)).status === 'ok',
    });
  }

  /**
   * An idle warm-up's slice failed or timed out: the isolate's state is unknown. It is disposed and
   * the session built again, cold, in its place; a run that arrived meanwhile waits for that
   * (SessionHost.run) and runs in the new isolate, not reset (no run had state to lose). A session
   * closed or reopened meanwhile is left as it is; if the build fails, the session stays disposed
   * and its run opens it again (and reports that failure).
   */
  private async rebuildCold(id: string, entry: Entry, failed: EngineSession): Promise<void> {
    failed.dispose('closed');
    if (this.sessions.get(id) !== entry || entry.session !== failed) return;
    let built: Built;
    try {
      built = await this.build(entry.spec);
    } catch {
      return;
    }
    if (this.sessions.get(id) !== entry) return built.session.dispose('closed');
    entry.session = built.session;
    entry.dataset = built.dataset;
    entry.engine = built.engine;
    entry.prefetch = built.prefetch;
    entry.tables = built.tables;
    entry.providers = built.providers;
  }

  /**
   * A session built for its open, warmed before any run (docs/architecture.md "Spare isolates and
   * the warm-up"): its isolate runs the prelude's warm-up on the isolate's own thread while this
   * thread checks a few programs (the code check's warm-up, once per process), so the session's
   * first program finds both compiled. A warm-up that fails or times out leaves the isolate in a
   * state no one checked: it is disposed and the session built again, cold.
   */
  private async warmed(built: Built, spec: SessionSpec): Promise<Built> {
    if (!this.warmOpen) return built;
    const isolate = built.session.warmUp?.(WARM_UP_TIMEOUT_MS);
    isolate?.catch(() => undefined); // awaited below, after the check's warm-up
    if (this.checkerWarmed < WARM_PROGRAMS.length) {
      this.checker.warmUp(this.checkerWarmed);
      this.checkerWarmed = WARM_PROGRAMS.length;
    }
    try {
      if (await isolate) built.session.keepWarmCodeCache?.();
      return built;
    } catch {
      built.session.dispose('closed');
      return this.build(spec);
    }
  }

  /** Spare pre-booted isolates (they belong to no session). */
  spareIsolates(): Promise<number> {
    return this.warm.count();
  }

  private async build(spec: SessionSpec): Promise<Built> {
    // the decode threads of Parquet and Arrow tables load their code while the engine and isolate do
    startColumnWorkers(spec.tables);
    // resolved first: an engine that cannot load is the caller's error, before any data is opened
    const engine = await resolveEngine(spec.engine);
    const providers: TableProvider[] = [];
    let dataset: DatasetInfo | undefined;
    let prefetch: Built['prefetch'];
    if (spec.data) {
      usePreludeCodeCacheDir(spec.data.cacheDir);
      const award = await this.tables.award(spec.data);
      providers.push(award.provider);
      dataset = award.info;
      prefetch = award.prefetch;
    }
    const loading = spec.tables.length > 0 ? this.loadTables(spec, providers) : providers;
    const session = await openEngineSession(engine, spec.limits, loading, dataset);
    const all = await loading;
    const tables = all.filter((p) => p.prefetch);
    return {
      session,
      dataset,
      engine: engine.label,
      prefetch,
      providers: all,
      ...(tables.length > 0 ? { tables } : {}),
    };
  }

  /**
   * The session's tables after `providers`, all loading together (decode workers, CSV ingest) while
   * the engine makes the isolate; the first failure in the tables' order is the error.
   */
  private loadTables(spec: SessionSpec, providers: TableProvider[]): Promise<TableProvider[]> {
    const tables = Promise.allSettled(spec.tables.map((t) => this.tables.table(t))).then((settled) => [
      ...providers,
      ...settled.map(loadedOrThrow),
    ]);
    tables.catch(() => undefined); // awaited by openEngineSession; this only keeps an early failure from counting as unhandled
    return tables;
  }

  /**
   * Check and prepare the code (one parse, inside the deadline: codeChecker.ts), then run it in
   * the open session; reopens the session first when a limit disposed its isolate.
   */
  async run(id: string, req: SourceRunRequest, onOutput?: OutputListener): Promise<RawRunOutcome & { reset: boolean }> {
    const received = performance.now();
    const entry = this.sessions.get(id);
    if (!entry) throw new Error(`no open session ${id}`);
    // the caller's idle round trip: the reply's path only, nothing of the session is touched
    if (req.warm) return { ...WARM_ROUND_TRIP, engine: entry.engine, reset: false };
    // the session's idle warm-up starts no slice from now on (its first run has arrived); every run
    // waits for a slice still in flight, also one whose first run was refused by the check
    const warming = entry.idleWarm?.stop();
    // remote data: the columns the code names are fetched while it is checked, all at once
    const named = entry.prefetch ? collectColumnNames(req.source) : null;
    const fetching = named && entry.prefetch ? entry.prefetch(named) : undefined;
    const pending = this.checker.check(req.source, req.preset, req.timeoutMs, entry.spec.limits.memoryLimitMb, id);
    let checked = pending instanceof Promise ? await pending : pending;
    if (checked === 'aborted') return notStarted(emptyOutcome('aborted', 'the run was cancelled by its AbortSignal'));
    const remainingMs = Math.ceil(req.timeoutMs - (performance.now() - received));
    if (checked.ok && remainingMs < 1) checked = parseTimeout(req.timeoutMs);
    if (!checked.ok) return notStarted({ ...emptyOutcome('rejected', checked.error.message), error: checked.error });
    if (warming) {
      // at most the slice in flight (and, after a failed one, the cold rebuild): never its isolate
      const waiting = { aborted: false };
      entry.waiting = waiting;
      await warming;
      entry.waiting = undefined;
      if (waiting.aborted) return notStarted(emptyOutcome('aborted', 'the run was cancelled by its AbortSignal'));
    }
    if (this.sessions.get(id) !== entry)
      return emptyOutcome('internal', 'the session was closed while the code was checked');
    let reset = false;
    if (!entry.session.alive) {
      await this.open(id, entry.spec, false);
      reset = true;
    }
    const current = this.sessions.get(id)!;
    // bounded by the run's own time: a slow host leaves the rest to the columns' first touch
    if (fetching) await Promise.race([fetching, new Promise((r) => setTimeout(r, remainingMs).unref())]);
    // the caller's Parquet and Arrow tables: the columns the code names, decoded together (its
    // names read by a second parse on this thread: only for code small enough to parse here)
    const spent =
      current.tables && req.source.length <= INLINE_CHECK_MAX_UNITS
        ? prefetchTables(current.tables, namedColumns(req.source), remainingMs)
        : 0;
    const left = Math.ceil(remainingMs - spent);
    if (left < 1) {
      const error = prefetchTimeout(req.timeoutMs);
      return notStarted({ ...emptyOutcome('rejected', error.message), error, reset });
    }
    this.startWatch();
    this.lastRunEdge = performance.now();
    try {
      const run = {
        ...keepGlobal(checked.prepared, req.source, current),
        timeoutMs: left,
        ...(req.deterministic ? { deterministic: req.deterministic } : {}),
        ...(onOutput ? { onOutput } : {}),
      };
      return { ...(await current.session.run(run)), engine: current.engine, reset };
    } finally {
      // a run that threw may have made functions too (a declaration is there before its first statement)
      addReads(current, checked.prepared.functionReads);
      this.lastRunEdge = performance.now();
      this.afterRun(current);
    }
  }

  /**
   * What a run leaves to do once it has ended, done after its reply has gone: this is called as
   * the outcome returns, and the holder sends the reply in the microtasks that follow, so the
   * `setImmediate` runs after the send and before the next request is read (the loop reads
   * requests in its poll phase, after this turn's check phase). The session's next run cannot
   * arrive before its reply, so it always finds this done; another session's run that starts
   * meanwhile finds the watch still on and keeps it (stopWatchIfIdle then leaves it).
   */
  private afterRun(entry: Entry): void {
    setImmediate(() => {
      for (const t of entry.tables ?? []) t.releasePrefetched?.();
      this.stopWatchIfIdle();
      this.codeCache.afterRun();
    }).unref();
  }

  /** Cancel the run in flight: the isolate is disposed, the session is rebuilt on its next run. */
  abort(id: string): void {
    // still parsing: the isolate holds no part of this run, so its state is kept
    if (this.checker.cancel(id)) return;
    const entry = this.sessions.get(id);
    // waiting for the idle warm-up's slice: the isolate holds no part of this run either (it ends as
    // cancelled once the slice is over)
    if (entry?.waiting) entry.waiting.aborted = true;
    else entry?.session.dispose('aborted');
  }

  close(id: string): void {
    const entry = this.sessions.get(id);
    if (!entry) return;
    this.sessions.delete(id);
    void entry.idleWarm?.stop();
    entry.session.dispose('closed');
  }

  closeAll(): void {
    this.checker.close();
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
    if (this.watch) {
      // another run is in flight: it keeps the watch and the baseline it started with
      if (this.anyRunning()) return;
      // the runs ended but their afterRun has not stopped the watch yet: start again from a fresh baseline
      clearInterval(this.watch);
      this.watch = undefined;
      this.baselineFresh = false;
    }
    // the baseline taken after the previous run replied (below) is still exact unless a run
    // started since; reading /proc and the heap costs ~6 µs (processMemory.ts), off the reply's path that way
    if (!this.baselineFresh) this.takeBaseline();
    this.baselineFresh = false;
    this.hardLimitReported = false;
    this.watch = setInterval(() => this.checkMemory(), WATCH_INTERVAL_MS);
    this.watch.unref();
  }

  private anyRunning(): boolean {
    for (const e of this.sessions.values()) if (e.session.isRunning) return true;
    return false;
  }

  private stopWatchIfIdle(): void {
    if (!this.watch || this.anyRunning()) return;
    clearInterval(this.watch);
    this.watch = undefined;
    // called after the reply has gone (afterRun): the baseline for the next run, off the reply's path
    this.takeBaseline();
    this.baselineFresh = true;
  }

  private takeBaseline(): void {
    const m = processMemory();
    this.baselineRss = m.rss;
    this.baselineTables = tableMemory.grownBytes;
    this.baselineOwn = m.own;
    this.peakOwn = this.baselineOwn;
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
    const m = processMemory();
    // The peak, not the current figure: pages this process decoded for the guest (long text) are
    // garbage once copied in, and after a GC the heap shrinks while the RSS keeps those pages for a
    // while. Counting only the current heap made that retained RSS look like the guest's growth
    // (a row-by-row scan of text larger than the isolate was stopped as MEMORY_LIMIT).
    this.peakOwn = Math.max(this.peakOwn, m.own);
    const own = Math.max(0, this.peakOwn - this.baselineOwn);
    // and neither is what decoding a lazily decoded table's columns for the guest took (tableMemory.ts)
    const grown = m.rss - this.baselineRss - own - (tableMemory.grownBytes - this.baselineTables);
    // parses on worker threads (codeChecker.ts) are capped at their own runs' limits: budgeted too
    const limits =
      (running.reduce((sum, e) => sum + e.spec.limits.memoryLimitMb, 0) + this.checker.workerBudgetMb) * 1048576;
    if (grown > limits * RSS_HARD_FACTOR && !this.hardLimitReported) {
      this.hardLimitReported = true;
      reportCatastrophe(
        `out of memory: the process grew ${mb(grown)} MB during runs limited to ${mb(limits)} MB and disposing their isolates did not stop it`,
        'oom',
      );
    }
    if (grown > limits * RSS_FACTOR) {
      for (const e of running) if (e.session.alive) e.session.dispose('memory');
    }
  }
}

/** Marks an outcome whose code never reached the isolate: the session's state is as it was. */
function notStarted<T extends RawRunOutcome>(outcome: T): T {
  return { ...outcome, codeRan: false };
}

function mb(bytes: number): number {
  return Math.round(bytes / 1048576);
}

/** A table that loaded, or (in the tables' order, so the error does not depend on timing) the first one's failure. */
function loadedOrThrow<T>(r: PromiseSettledResult<T>): T {
  if (r.status === 'rejected') throw r.reason;
  return r.value;
}

/** Programs keepGlobal keeps prepared per session (each at most INLINE_CHECK_MAX_UNITS long). */
const KEPT_GLOBAL_ENTRIES = 16;

/**
 * `prepared`, or the same program prepared again with the names a function of an earlier run may
 * read kept global when it localized one of them (a session whose functions read its loop
 * variables). A function called during the run must see each global as the plain transform has it.
 * The preparation is a parse and the transform (0.1-0.4 ms for model code), a pure function of the
 * source and the session's reads: kept until a run adds a read (addReads empties the store).
 */
function keepGlobal(prepared: PreparedCode, source: string, entry: Entry): PreparedCode {
  const reads = entry.functionReads;
  const locals = prepared.locals;
  if (!locals || (reads !== 'all' && !locals.some((n) => reads.has(n)))) return prepared;
  const kept = entry.keptGlobal;
  const known = kept.get(source);
  if (known) {
    // most recently used last: the oldest entry is the first one evicted
    kept.delete(source);
    kept.set(source, known);
    return known;
  }
  const again = Object.freeze(withRunForm(prepareCode(source, undefined, reads)));
  if (source.length <= INLINE_CHECK_MAX_UNITS) {
    kept.set(source, again);
    if (kept.size > KEPT_GLOBAL_ENTRIES) kept.delete(kept.keys().next().value!);
  }
  return again;
}

function addReads(entry: Entry, reads: PreparedCode['functionReads']): void {
  if (!reads || entry.functionReads === 'all') return;
  const before = entry.functionReads.size;
  if (reads === 'all') entry.functionReads = 'all';
  else for (const n of reads) entry.functionReads.add(n);
  // the preparations kept under the reads as they were are not the ones these reads make
  if (entry.functionReads === 'all' || entry.functionReads.size !== before) entry.keptGlobal.clear();
}
