import type { Ivm } from './engine.js';
import type { Limits } from '../../schema/limits.js';
import type { DatasetInfo } from '../../schema/result.js';
import type { TableProvider } from './tableProviders.js';
import type { GuestRunRequest, RawRunOutcome, RawStatus } from './protocol.js';
import { compilePrelude } from './preludeScript.js';
import { OutputBuffer } from './outputBuffer.js';
import { removeDangerousGlobals } from './hardenGlobals.js';
import { sliceUtf8 } from './sliceUtf8.js';

import type IVM from '#ivm-types';

type Isolate = IVM.Isolate;
type Reference = IVM.Reference<any>;

const BOOT_TIMEOUT_MS = 15_000;

type DisposeReason = 'timeout' | 'memory' | 'aborted' | 'closed';

/**
 * One isolate with the prelude booted and the session's tables attached. Lives in a holder
 * process (or in-process with `isolation: 'inline'`). State persists between runs until dispose.
 */
export class GuestSession {
  private disposedReason: DisposeReason | undefined;
  private output: OutputBuffer | undefined;
  private running = false;

  private constructor(
    private readonly ivm: Ivm,
    readonly isolate: Isolate,
    private readonly execute: Reference,
    private readonly limits: Limits,
  ) {}

  /** Create the isolate, evaluate the prelude (from code cache), boot it with the bridge, harden globals. */
  static async open(ivm: Ivm, limits: Limits, tables: TableProvider[], dataset: DatasetInfo | undefined): Promise<GuestSession> {
    const isolate = new ivm.Isolate({ memoryLimit: limits.memoryLimitMb });
    try {
      const context = isolate.createContextSync();
      const script = compilePrelude(ivm, isolate);
      script.runSync(context, { timeout: BOOT_TIMEOUT_MS });
      let session: GuestSession | undefined;
      const byName = new Map(tables.map((t) => [t.meta.name, t]));
      const bridge = {
        tables: tables.map((t) => t.meta),
        dataset: dataset ?? null,
        limits,
        // Callbacks copy their arguments and results (ExternalCopy rules): nothing of the host is reachable.
        fetchColumn: new ivm.Callback((table: unknown, column: unknown) => {
          const provider = typeof table === 'string' ? byName.get(table) : undefined;
          if (!provider || typeof column !== 'string') throw new Error(`unknown table or column: ${String(table)}.${String(column)}`);
          return provider.loadColumn(column);
        }),
        fetchColumnRange: new ivm.Callback((table: unknown, column: unknown, start: unknown, end: unknown) => {
          const provider = typeof table === 'string' ? byName.get(table) : undefined;
          if (!provider || typeof column !== 'string') throw new Error(`unknown table or column: ${String(table)}.${String(column)}`);
          return sliceUtf8(provider.loadColumn(column), Number(start), Number(end));
        }),
        write: new ivm.Callback((stream: unknown, text: unknown) => {
          session?.output?.write(stream === 'stderr' ? 'stderr' : 'stdout', typeof text === 'string' ? text : String(text));
        }),
      };
      const boot = context.global.getSync('__sbirtools_boot', { reference: true }) as Reference;
      if (boot.typeof !== 'function') throw new Error('the prelude bundle did not define __sbirtools_boot');
      const internals = boot.applySync(undefined, [bridge], {
        timeout: BOOT_TIMEOUT_MS,
        arguments: { copy: true },
        result: { reference: true },
      }) as Reference;
      const execute = internals.getSync('execute', { reference: true }) as Reference;
      // The boot function is called once, by the host; user code must not re-enter it.
      context.evalSync('delete globalThis.__sbirtools_boot', { timeout: BOOT_TIMEOUT_MS });
      removeDangerousGlobals(context);
      session = new GuestSession(ivm, isolate, execute, limits);
      return session;
    } catch (err) {
      if (!isolate.isDisposed) isolate.dispose();
      throw err;
    }
  }

  get alive(): boolean {
    return !this.isolate.isDisposed;
  }

  /** Run prepared code under the deadline. Never throws: every failure is a RawRunOutcome. */
  async run(req: GuestRunRequest): Promise<RawRunOutcome> {
    const started = performance.now();
    const output = new OutputBuffer(this.limits.maxOutputBytes);
    this.output = output;
    this.running = true;
    const cpu0 = this.cpuNs();
    let timer: NodeJS.Timeout | undefined;
    const finish = (status: RawStatus, extra: Partial<RawRunOutcome> = {}): RawRunOutcome => ({
      status,
      stdout: output.stdout,
      stderr: output.stderr,
      outputTruncated: output.truncated,
      ...extra,
      stats: {
        wallMs: round(performance.now() - started),
        cpuMs: round(Math.max(0, Number(this.cpuNs() - cpu0)) / 1e6),
        heapUsedMb: this.heapUsedMb(),
      },
    });
    try {
      const deadline = new Promise<'deadline'>((resolve) => {
        timer = setTimeout(() => resolve('deadline'), req.timeoutMs);
      });
      const opts = { async: req.async, lineOffset: req.lineOffset, resultName: req.resultName, deterministic: req.deterministic };
      // The sync part runs under isolated-vm's timeout; promises are raced against the host deadline.
      const exec = this.execute.apply(undefined, [req.code, opts], {
        arguments: { copy: true },
        result: { promise: true, copy: true },
        timeout: req.timeoutMs,
      }) as Promise<unknown>;
      const winner = await Promise.race([exec, deadline]);
      if (winner === 'deadline') {
        exec.catch(() => undefined);
        this.dispose('timeout');
        return finish('timeout', { message: `did not finish within ${req.timeoutMs} ms` });
      }
      if (typeof winner !== 'string') return finish('internal', { message: 'the prelude returned a non-string outcome' });
      return finish('ok', { outcomeJson: winner });
    } catch (err) {
      return finish(...this.classify(err));
    } finally {
      clearTimeout(timer);
      this.running = false;
      this.output = undefined;
    }
  }

  /** Dispose the isolate; `reason` decides how an in-flight run is reported. Idempotent. */
  dispose(reason: DisposeReason = 'closed'): void {
    this.disposedReason ??= reason;
    if (!this.isolate.isDisposed) this.isolate.dispose();
  }

  get isRunning(): boolean {
    return this.running;
  }

  private classify(err: unknown): [RawStatus, Partial<RawRunOutcome>] {
    const message = String(err instanceof Error ? err.message : err);
    if (this.disposedReason === 'aborted') return ['aborted', { message: 'the run was cancelled by its AbortSignal' }];
    if (this.disposedReason === 'memory' || /memory limit/i.test(message)) {
      this.dispose('memory');
      return ['memory', { message: `exceeded the memory limit of ${this.limits.memoryLimitMb} MB` }];
    }
    if (this.disposedReason === 'timeout' || /timed out/i.test(message)) {
      this.dispose('timeout');
      return ['timeout', { message: `did not finish within the time limit` }];
    }
    return ['internal', { message }];
  }

  private cpuNs(): bigint {
    try {
      return this.isolate.isDisposed ? 0n : BigInt(this.isolate.cpuTime);
    } catch {
      return 0n;
    }
  }

  private heapUsedMb(): number {
    try {
      return this.isolate.isDisposed ? 0 : round(this.isolate.getHeapStatisticsSync().used_heap_size / 1048576);
    } catch {
      return 0;
    }
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
