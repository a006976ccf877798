import type { Ivm } from './loadIsolatedVm.js';
import type { Limits } from '../../../../schema/limits.js';
import type { DatasetInfo } from '../../../../schema/result.js';
import type { RawRunOutcome, RawStatus } from '../../../../schema/outcome.js';
import { guestKind, guestLoad, guestTake, guestVisibleSource, guestWindow } from '../guestTables.js';
import { compilePrelude, keepWarmCodeCache, warmCodeCacheWanted } from '../preludeScript.js';
import { OutputBuffer } from '../outputBuffer.js';
import { removeDangerousGlobals } from '../hardenGlobals.js';
import { sliceUtf8 } from '../sliceUtf8.js';
import { HostScan } from './hostScan.js';
import { TextPageServer } from './textPageServer.js';
import { transferColumn } from './transferColumn.js';
import { withYoungGeneration } from './youngGeneration.js';
import type { TextScanRequest } from '../../../../schema/columnar.js';
import { FileSink } from '../fileSink.js';
import type { EngineSession, GuestRunRequest, TableProvider } from '../engineSession.js';
import { disposeIsolate } from './disposeIsolate.js';
import { EXECUTE_ASYNC, EXECUTE_DETERMINISTIC, EXECUTE_RESULT_NAME } from '../../../../schema/executeFlags.js';

import type IVM from '#ivm-types';

type Isolate = IVM.Isolate;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a Reference to guest values of any shape
type Reference = IVM.Reference<any>;

const BOOT_TIMEOUT_MS = 15_000;
/**
 * After a limit disposed the isolate, how long its run may take to unwind. A builtin that ignores
 * termination (indexOf over 2**40 indices, a default sort of millions, huge BigInt math, a deep
 * JSON.parse) keeps its thread spinning after dispose; past this grace the process is lost.
 */
const STUCK_GRACE_MS = 300;

type DisposeReason = 'timeout' | 'memory' | 'aborted' | 'closed';

/**
 * Called when isolated-vm has lost control of an isolate: its thread is stuck in a builtin that
 * ignores termination, or V8 hit a fatal out-of-memory (isolated-vm's `onCatastrophicError`).
 * Nothing but ending the process reclaims that thread and its memory: the holder process installs
 * a handler that reports and exits (holderMain.ts), so the host replaces it. `kind` says which.
 */
export type CatastropheHandler = (message: string, kind: 'oom' | 'stuck') => void;

let onCatastrophe: CatastropheHandler = (message) => {
  // isolation: 'inline' has no process to end: the thread (and its memory) is lost for good.
  process.emitWarning(
    `sbirtools: ${message}; the isolate's thread cannot be reclaimed in this process (use isolation: 'process')`,
  );
};

/** Install the process-wide catastrophe handler (the holder process does, at start). */
export function setCatastropheHandler(handler: CatastropheHandler): void {
  onCatastrophe = handler;
}

/** Report a catastrophe found outside isolated-vm (the memory watchdog in sessionHost.ts). */
export function reportCatastrophe(message: string, kind: 'oom' | 'stuck'): void {
  onCatastrophe(message, kind);
}

/**
 * One isolate with the prelude booted and the session's tables attached. Lives in a holder
 * process (or in-process with `isolation: 'inline'`). State persists between runs until dispose.
 */
export class IsolatedVmSession implements EngineSession {
  private disposedReason: DisposeReason | undefined;
  private output: OutputBuffer | undefined;
  /** This run's saved files; undefined between runs (a save then fails). */
  private files: FileSink | undefined;
  private running = false;
  /** isolated-vm gave up on this isolate: never touch it again (dispose could wait on its parked thread). */
  private lost = false;
  /** Wakes a run in flight when a limit or the caller disposes the isolate (see run()). */
  private interrupt: (() => void) | undefined;
  /** A run has started in this isolate: user code may have run, so it is never warmed (warmUp). */
  private touched = false;

  private constructor(
    private readonly ivm: Ivm,
    readonly isolate: Isolate,
    private readonly execute: Reference,
    private readonly warm: Reference,
    private readonly warmOne: Reference,
    private readonly limits: Limits,
    private readonly textPages: TextPageServer,
  ) {}

  /**
   * Create the isolate, evaluate the prelude (from code cache), boot it with the bridge, harden
   * globals. `tables` may still be loading: the isolate and the prelude (synchronous, on this
   * thread) are made while a decode worker or a download finishes them, and the boot waits.
   */
  static async open(
    ivm: Ivm,
    limits: Limits,
    tables: TableProvider[] | Promise<TableProvider[]>,
    dataset: DatasetInfo | undefined,
  ): Promise<IsolatedVmSession> {
    let session: IsolatedVmSession | undefined;
    // a young generation sized for a run's bulk allocations (youngGeneration.ts)
    const isolate = withYoungGeneration(
      limits.memoryLimitMb,
      () =>
        new ivm.Isolate({
          memoryLimit: limits.memoryLimitMb,
          // Without this handler isolated-vm calls abort() on a fatal OOM (the whole process dies
          // with SIGABRT) and waits forever on a script that failed to terminate. With it, the
          // isolate's thread is parked and we decide: report, and end the holder process.
          onCatastrophicError: (message: string) => {
            const oom = /memory/i.test(message);
            onCatastrophe(`isolated-vm: ${message}`, oom ? 'oom' : 'stuck');
            session?.lose(oom ? 'memory' : 'timeout');
          },
        }),
    );
    try {
      const context = isolate.createContextSync();
      const script = compilePrelude(ivm, isolate);
      script.runSync(context, { timeout: BOOT_TIMEOUT_MS });
      const providers = await tables;
      const byName = new Map(providers.map((t) => [t.meta.name, t]));
      const textPages = new TextPageServer();
      const hostScan = new HostScan();
      const bridge = {
        tables: providers.map((t) => t.meta),
        // the guest sees a file's name, never the host's absolute path (a URL or 'embedded-…' is kept)
        dataset: dataset ? { ...dataset, source: guestVisibleSource(dataset.source) } : null,
        limits,
        // Callbacks copy their arguments and results (ExternalCopy rules): nothing of the host is reachable.
        // Columns come back as copies of their arrays moved in (transferColumn.ts): one copy, not two.
        fetchColumn: new ivm.Callback((table: unknown, column: unknown) =>
          guestSafe(() => {
            const provider = typeof table === 'string' ? byName.get(table) : undefined;
            if (!provider || typeof column !== 'string')
              throw new Error(`unknown table or column: ${String(table)}.${String(column)}`);
            // a column taken from its provider (takeColumn) is this call's alone: its buffers move as they are
            return transferColumn(ivm, guestTake(provider, table as string, column), provider.takeColumn !== undefined);
          }),
        ),
        // the kind of a column the host decides on first load (kindPending: a lazily decoded Parquet text column)
        columnKind: new ivm.Callback((table: unknown, column: unknown) =>
          guestSafe(() => {
            const provider = typeof table === 'string' ? byName.get(table) : undefined;
            if (!provider || typeof column !== 'string')
              throw new Error(`unknown table or column: ${String(table)}.${String(column)}`);
            return provider.columnKind
              ? guestKind(provider, table as string, column)
              : guestLoad(provider, table as string, column).kind;
          }),
        ),
        fetchColumnRange: new ivm.Callback((table: unknown, column: unknown, start: unknown, end: unknown) =>
          guestSafe(() => {
            const provider = typeof table === 'string' ? byName.get(table) : undefined;
            if (!provider || typeof column !== 'string')
              throw new Error(`unknown table or column: ${String(table)}.${String(column)}`);
            return transferColumn(
              ivm,
              sliceUtf8(guestLoad(provider, table as string, column), Number(start), Number(end)),
            );
          }),
        ),
        // a few rows of a column not loaded yet (head(), one row of every column), read alone; null: load it whole
        fetchRowWindow: new ivm.Callback((table: unknown, column: unknown, start: unknown, end: unknown) =>
          guestSafe(() => {
            const provider = typeof table === 'string' ? byName.get(table) : undefined;
            if (!provider || typeof column !== 'string')
              throw new Error(`unknown table or column: ${String(table)}.${String(column)}`);
            return guestWindow(provider, table as string, column, Number(start), Number(end));
          }),
        ),
        // text decoded natively here, one string per row, the next page read ahead while the guest
        // uses this one (textPageServer.ts); the guest caches the pages (prelude/data/textCache.ts)
        fetchTextPage: new ivm.Callback((table: unknown, column: unknown, start: unknown, end: unknown) =>
          guestSafe(() => {
            const provider = typeof table === 'string' ? byName.get(table) : undefined;
            if (!provider || typeof column !== 'string')
              throw new Error(`unknown table or column: ${String(table)}.${String(column)}`);
            return textPages.page(provider, table as string, column, Number(start), Number(end));
          }),
        ),
        // a length or a literal contains answered from the UTF-8 bytes: no row crosses into the isolate
        textScan: new ivm.Callback((table: unknown, column: unknown, start: unknown, end: unknown, req: unknown) =>
          guestSafe(() => {
            const provider = typeof table === 'string' ? byName.get(table) : undefined;
            if (!provider || typeof column !== 'string')
              throw new Error(`unknown table or column: ${String(table)}.${String(column)}`);
            const r = req as Partial<{ op: string; needle: unknown; fold: unknown }> | null;
            const ask: TextScanRequest | null =
              r?.op === 'len' || r?.op === 'units' || r?.op === 'distinct'
                ? { op: r.op }
                : r?.op === 'contains' &&
                    typeof r.needle === 'string' &&
                    (r.fold === 'none' || r.fold === 'regex' || r.fold === 'lower')
                  ? { op: 'contains', needle: r.needle, fold: r.fold }
                  : r?.op === 'equals' && typeof r.needle === 'string'
                    ? { op: 'equals', needle: r.needle }
                    : null;
            if (!ask) throw new Error('textScan: malformed request');
            return hostScan.scan(provider, table as string, column, Number(start), Number(end), ask);
          }),
        ),
        // a long text column as dictionary codes built here from its bytes, for a group-by or a count
        // of it in the guest (prelude/data/lazyColumn.ts hostCodes); the fresh arrays move in as they are
        textCodes: new ivm.Callback((table: unknown, column: unknown) =>
          guestSafe(() => {
            const provider = typeof table === 'string' ? byName.get(table) : undefined;
            if (!provider || typeof column !== 'string')
              throw new Error(`unknown table or column: ${String(table)}.${String(column)}`);
            const coded = hostScan.codes(provider, table as string, column);
            return coded ? transferColumn(ivm, coded, true) : null;
          }),
        ),
        write: new ivm.Callback((stream: unknown, text: unknown) => {
          session?.output?.write(
            stream === 'stderr' ? 'stderr' : 'stdout',
            typeof text === 'string' ? text : String(text),
          );
        }),
        // Files out (isolated-vm's part): the Uint8Array argument arrives as a host copy of its bytes
        // (ExternalCopy of the typed array, never JSON); FileSink checks name, type and the byte cap.
        saveFile: new ivm.Callback((name: unknown, mediaType: unknown, bytes: unknown) => {
          const sink = session?.files;
          if (!sink) throw new Error('files can only be saved while code runs');
          sink.add(name, mediaType, bytes);
        }),
      };
      const boot = context.global.getSync('__sbirtools_boot', { reference: true }) as Reference;
      if (boot.typeof !== 'function') throw new Error('the prelude bundle did not define __sbirtools_boot');
      const internals = boot.applySync(undefined, [bridge], {
        timeout: BOOT_TIMEOUT_MS,
        arguments: { copy: true },
        result: { reference: true },
      }) as Reference;
      // execute() with its options as numbers: they cross as primitives, no structured clone (execute.ts)
      const execute = internals.getSync('executeFlat', { reference: true }) as Reference;
      const warm = internals.getSync('warm', { reference: true }) as Reference;
      const warmOne = internals.getSync('warmSlice', { reference: true }) as Reference;
      // The boot function is called once, by the host; user code must not re-enter it.
      context.evalSync('delete globalThis.__sbirtools_boot', { timeout: BOOT_TIMEOUT_MS });
      removeDangerousGlobals(context);
      session = new IsolatedVmSession(ivm, isolate, execute, warm, warmOne, limits, textPages);
      return session;
    } catch (err) {
      disposeIsolate(isolate);
      throw err;
    }
  }

  get alive(): boolean {
    return !this.lost && !this.isolate.isDisposed;
  }

  /**
   * The spare's warm-up (EngineSession.warmUp): only before the first run, so no user code (a
   * FinalizationRegistry callback, a replaced builtin) can run inside it; the prelude refuses too.
   */
  async warmUp(timeoutMs: number): Promise<boolean> {
    if (this.touched || this.running || !this.alive) return false;
    const failed = (await this.warm.apply(undefined, [], {
      result: { copy: true },
      timeout: timeoutMs,
    })) as string[] | null;
    if (failed === null) return false;
    if (failed.length > 0) throw new Error(`warm-up questions failed: ${failed.join('; ')}`);
    return true;
  }

  /** One slice of the warm-up (EngineSession.warmSlice), under the same rules as warmUp. */
  async warmSlice(slice: number, timeoutMs: number): Promise<'more' | 'done' | 'refused'> {
    if (this.touched || this.running || !this.alive) return 'refused';
    const out = (await this.warmOne.apply(undefined, [slice], {
      arguments: { copy: true },
      result: { copy: true },
      timeout: timeoutMs,
    })) as { failed: string[]; done: boolean } | null;
    if (out === null) return 'refused';
    if (out.failed.length > 0) throw new Error(`warm-up questions failed: ${out.failed.join('; ')}`);
    return out.done ? 'done' : 'more';
  }

  /** EngineSession.wantsWarmCodeCache: this process has no warm code cache yet. */
  wantsWarmCodeCache(): boolean {
    return warmCodeCacheWanted();
  }

  /** EngineSession.keepWarmCodeCache: only in an isolate no run has touched (the warm-up's alone). */
  keepWarmCodeCache(): boolean {
    if (this.touched || this.running || !this.alive) return false;
    return keepWarmCodeCache(this.isolate);
  }

  /** Run prepared code under the deadline. Never throws: every failure is a RawRunOutcome. */
  async run(req: GuestRunRequest): Promise<RawRunOutcome> {
    this.touched = true;
    const started = performance.now();
    const output = new OutputBuffer(this.limits.maxOutputBytes, req.onOutput);
    this.output = output;
    const files = new FileSink(this.limits.maxFileBytes);
    this.files = files;
    this.running = true;
    const cpu0 = this.cpuNs();
    let timer: NodeJS.Timeout | undefined;
    const finish = (status: RawStatus, extra: Partial<RawRunOutcome> = {}): RawRunOutcome => ({
      status,
      stdout: output.stdout,
      stderr: output.stderr,
      outputTruncated: output.truncated,
      ...(files.usedBytes > 0 || files.files().length ? { files: files.files() } : {}),
      ...extra,
      stats: {
        wallMs: round(performance.now() - started),
        cpuMs: round(Math.max(0, Number(this.cpuNs() - cpu0)) / 1e6),
        heapUsedMb: this.heapUsedMb(),
      },
    });
    try {
      // Resolves when the isolate is disposed mid-run: by the deadline below, the memory watchdog
      // (sessionHost.ts), an abort or a catastrophe. The run then ends without trusting the
      // isolate's thread to unwind (a builtin that ignores termination never does).
      const stopped = new Promise<'stopped'>((resolve) => {
        this.interrupt = () => resolve('stopped');
        timer = setTimeout(() => this.dispose('timeout'), req.timeoutMs);
      });
      // the prelude's executeFlat (execute.ts): the options as flags, then lineOffset, now and seed,
      // then the code check's function form of the code when it made one (two strings)
      const d = req.deterministic;
      const args = [
        String(req.code),
        (req.async ? EXECUTE_ASYNC : 0) | (req.resultName ? EXECUTE_RESULT_NAME : 0) | (d ? EXECUTE_DETERMINISTIC : 0),
        Number(req.lineOffset) || 0,
        d ? Number(d.now) : 0,
        d ? Number(d.seed) : 0,
        ...(req.form ? [String(req.form.text), String(req.form.declare)] : []),
      ];
      // Called from a microtask of its own: isolated-vm records up to 10 frames of the caller's
      // stack for every asynchronous call (ThreePhaseTask::Run), and the holder reaches here from
      // the IPC message event through ~10 optimized frames, whose summaries need deopt translation
      // (~3 µs a run). An abort or a limit that disposes the isolate meanwhile ends the run as now:
      // the call rejects, and classify reads the reason.
      await Promise.resolve();
      // The sync part runs under isolated-vm's timeout; promises are raced against the host deadline.
      // primitives only: isolated-vm copies each as it is, without `arguments: { copy: true }`'s clone
      const exec = this.execute.apply(undefined, args, {
        result: { promise: true, copy: true },
        timeout: req.timeoutMs,
      }) as Promise<unknown>;
      const winner = await Promise.race([exec, stopped]);
      if (winner === 'stopped') {
        const unwound = await Promise.race([
          exec.then(
            () => true,
            () => true,
          ),
          delay(STUCK_GRACE_MS, false),
        ]);
        if (!unwound) {
          onCatastrophe(
            `a run ignored termination for ${STUCK_GRACE_MS} ms after its isolate was disposed (${this.disposedReason})`,
            'stuck',
          );
        }
        return finish(...this.classify(new Error('disposed')));
      }
      if (typeof winner !== 'string')
        return finish('internal', { message: 'the prelude returned a non-string outcome' });
      return finish('ok', { outcomeJson: winner });
    } catch (err) {
      return finish(...this.classify(err));
    } finally {
      clearTimeout(timer);
      this.interrupt = undefined;
      this.running = false;
      this.output = undefined;
      this.files = undefined;
    }
  }

  /** Dispose the isolate; `reason` decides how an in-flight run is reported. Idempotent. */
  dispose(reason: DisposeReason = 'closed'): void {
    this.disposedReason ??= reason;
    if (!this.lost) disposeIsolate(this.isolate);
    this.textPages.close();
    this.interrupt?.();
  }

  /** isolated-vm reported a catastrophe for this isolate: end its run, never reuse it. */
  private lose(reason: DisposeReason): void {
    this.lost = true;
    this.disposedReason ??= reason;
    this.interrupt?.();
  }

  get isRunning(): boolean {
    return this.running;
  }

  private classify(err: unknown): [RawStatus, Partial<RawRunOutcome>] {
    // `err` is already a host-side copy (isolated-vm copied it out); reading it runs no guest code.
    const message = String(err instanceof Error ? err.message : err);
    if (this.disposedReason === 'aborted') return ['aborted', { message: 'the run was cancelled by its AbortSignal' }];
    if (
      this.disposedReason === 'memory' ||
      /^Isolate was disposed during execution due to memory limit/.test(message)
    ) {
      this.dispose('memory');
      return ['memory', { message: `exceeded the memory limit of ${this.limits.memoryLimitMb} MB` }];
    }
    if (this.disposedReason === 'timeout' || /^Script execution timed out/.test(message)) {
      this.dispose('timeout');
      return ['timeout', { message: `did not finish within the time limit` }];
    }
    if (this.disposedReason === 'closed') return ['internal', { message: 'the session was closed while the code ran' }];
    if (ENGINE_ERRORS.test(message)) return ['internal', { message }];
    // Anything else is the guest's own reason: isolated-vm rejects the call with a promise
    // rejection nobody handled (`Promise.reject(e)` left alone, an un-awaited async function that
    // throws, a dynamic import()). It is the code's failure, not ours; its text is guest-made.
    return ['ok', { outcomeJson: unhandledRejectionJson(err, message) }];
  }

  private cpuNs(): bigint {
    try {
      return this.lost || this.isolate.isDisposed ? 0n : BigInt(this.isolate.cpuTime);
    } catch {
      return 0n;
    }
  }

  private heapUsedMb(): number {
    try {
      return this.lost || this.isolate.isDisposed
        ? 0
        : round(this.isolate.getHeapStatisticsSync().used_heap_size / 1048576);
    } catch {
      return 0;
    }
  }
}

/** Errors isolated-vm itself raises (not copies of a guest value). */
const ENGINE_ERRORS =
  /^(Isolate was disposed during execution|Script execution timed out|Isolated? is (already )?disposed)/;

function unhandledRejectionJson(err: unknown, message: string): string {
  const name = err instanceof Error && /^[A-Za-z_$][\w$]{0,63}$/.test(err.name) ? err.name : 'Error';
  return JSON.stringify({
    ok: false,
    error: {
      name,
      message: `Unhandled promise rejection: ${message.slice(0, 2000)}`,
      hint: 'A promise was rejected and nothing handled it: await it inside try/catch, or add .catch(...). Only the value of the run (or an awaited promise) is waited for.',
    },
  });
}

function delay<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms));
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * Runs the body of a bridge callback. An error crosses into the guest with its class and message
 * only: isolated-vm copies `stack` too, and a host stack names host files (paths of this install).
 */
function guestSafe<T>(body: () => T): T {
  try {
    return body();
  } catch (err) {
    if (err instanceof Error) err.stack = `${err.name}: ${err.message}`;
    throw err;
  }
}
