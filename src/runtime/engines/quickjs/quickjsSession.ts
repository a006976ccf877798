import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core';
import type { QuickJsEngine } from './quickjsModule.js';
import type { BootedMemory } from './quickjsBoot.js';
import type { Limits } from '../../../../schema/limits.js';
import type { DatasetInfo } from '../../../../schema/result.js';
import type { RawRunOutcome, RawStatus } from '../../../../schema/outcome.js';
import type { DisposeReason, EngineSession, GuestRunRequest, TableProvider } from '../engineSession.js';
import { OutputBuffer } from '../outputBuffer.js';
import { quickJsFailure } from './quickjsFailure.js';
import { bootQuickJs, freeQuietly } from './quickjsBoot.js';
import { growWasRefused } from './quickjsInstance.js';

/** A memory within this of its maximum has run out (the allocator cannot grow it any more). */
const FULL_SLACK_BYTES = 2 * 1048576;
/** The start of the prelude's fixed outcome when it cannot build one (prelude/serialize/outcome.ts FALLBACK_OUTCOME). */
const FALLBACK_PREFIX =
  '{"ok":false,"error":{"name":"InternalError","message":"The prelude could not build the outcome';
/** Promise jobs run per slice before the host looks at its clock and its messages again. */
const JOB_SLICE = 512;
/** How long the pump may keep the thread before it yields to the event loop (abort, IPC). */
const YIELD_EVERY_MS = 25;

/**
 * One QuickJS runtime + context (quickjs-emscripten, WASM) with the prelude booted and the session's
 * tables attached: the second engine behind the EngineSession contract (docs/engines.md). Limits:
 * memory through the runtime's memory limit (every allocation of the session, columns included,
 * is counted), the deadline through the interrupt handler (sync code) and the host's clock and a
 * timer between promise-job slices (async code: the host pumps the jobs, so a microtask flood or a
 * promise that never settles still ends at the deadline), output and result caps as on isolated-vm.
 */
export class QuickJsSession implements EngineSession {
  private stopReason: DisposeReason | undefined;
  private disposed = false;
  /** Set when a run was stopped mid-way or trapped: the instance is dropped whole, never freed piecemeal. */
  private poisoned = false;
  private running = false;
  private deadline = Number.POSITIVE_INFINITY;
  private output: OutputBuffer | undefined;
  /** Wakes a run that waits on a promise with no jobs left (it can only end by the deadline or a stop). */
  private wake: (() => void) | undefined;

  private constructor(
    private readonly memory: BootedMemory,
    private readonly rt: QuickJSRuntime,
    private readonly vm: QuickJSContext,
    private readonly execute: QuickJSHandle,
    private readonly limits: Limits,
  ) {}

  /** A fresh runtime and context, the prelude evaluated and booted with the bridge, globals hardened. */
  static async open(
    engine: QuickJsEngine,
    limits: Limits,
    tables: TableProvider[],
    dataset: DatasetInfo | undefined,
  ): Promise<QuickJsSession> {
    let session: QuickJsSession | undefined;
    const booted = await bootQuickJs(engine, limits, tables, dataset, {
      interrupt: () => session!.shouldInterrupt(),
      output: () => session?.output,
    });
    session = new QuickJsSession(booted.memory, booted.rt, booted.vm, booted.execute, limits);
    return session;
  }

  get alive(): boolean {
    return !this.disposed && this.stopReason === undefined;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** The interrupt handler: QuickJS asks every few thousand operations (and inside the regex engine). */
  private shouldInterrupt(): boolean {
    if (this.stopReason) return true;
    if (this.running && performance.now() > this.deadline) {
      this.stopReason = 'timeout';
      return true;
    }
    return false;
  }

  /** Run prepared code under the deadline. Never throws: every failure is a RawRunOutcome. */
  async run(req: GuestRunRequest): Promise<RawRunOutcome> {
    const started = performance.now();
    const cpu0 = cpuNow();
    const output = new OutputBuffer(this.limits.maxOutputBytes, req.onOutput);
    const finish = (status: RawStatus, extra: Partial<RawRunOutcome> = {}): RawRunOutcome => {
      const cpu = cpuNow(cpu0);
      return {
        status,
        stdout: output.stdout,
        stderr: output.stderr,
        outputTruncated: output.truncated,
        ...extra,
        stats: {
          wallMs: round(performance.now() - started),
          cpuMs: round((cpu.user + cpu.system) / 1000),
          heapUsedMb: this.heapUsedMb(),
        },
      };
    };
    if (!this.alive) return finish('internal', { message: 'the session was closed' });
    this.output = output;
    this.running = true;
    this.deadline = started + req.timeoutMs;
    const timer = setTimeout(() => this.stop('timeout'), req.timeoutMs);
    try {
      let [status, extra] = await this.evaluate(req);
      if (this.memoryFull()) {
        // The instance's memory reached its maximum: whatever the code saw (an "out of memory"
        // InternalError, or `null` thrown when even the error could not be allocated), the run hit
        // the memory limit. A run that caught it and finished still leaves a full heap: reset.
        this.stopReason ??= 'memory';
        if (status !== 'ok' || !/^\{"ok":true/.test(extra.outcomeJson ?? '')) [status, extra] = this.stopped();
      }
      return finish(status, extra);
    } catch (err) {
      // a trap or a host stack overflow inside the WASM code: the instance is not trusted again
      this.poisoned = true;
      // QuickJS's allocator can trap (an out-of-bounds access) instead of failing cleanly when the
      // instance's memory cannot grow: once a grow was refused (or the memory is full) that is the
      // run's memory limit, not a bug of the engine (a Map of objects grown forever ends this way)
      if (growWasRefused(this.memory.wasm) || this.memoryFull()) {
        this.stopReason ??= 'memory';
        return finish(...this.stopped());
      }
      this.stopReason ??= 'closed';
      return finish('internal', {
        message: `the QuickJS engine failed: ${err instanceof Error ? err.message : String(err)}`,
      });
    } finally {
      clearTimeout(timer);
      this.running = false;
      this.output = undefined;
      this.deadline = Number.POSITIVE_INFINITY;
      if (this.stopReason) {
        // Stopped by a limit: freeing would walk every object the run left (seconds for a flood
        // of millions of promises) and can trip QuickJS's leak assertion. The instance is this
        // session's alone: drop it whole, and the garbage collector takes its memory.
        this.poisoned = true;
        this.free();
      }
    }
  }

  private async evaluate(req: GuestRunRequest): Promise<[RawStatus, Partial<RawRunOutcome>]> {
    const vm = this.vm;
    const opts = vm.newObject();
    const code = vm.newString(req.code);
    try {
      for (const [k, v] of [
        ['async', req.async],
        ['resultName', req.resultName],
      ] as const)
        vm.setProp(opts, k, v ? vm.true : vm.false);
      vm.newNumber(req.lineOffset).consume((h) => vm.setProp(opts, 'lineOffset', h));
      if (req.deterministic) {
        const d = vm.newObject();
        vm.newNumber(req.deterministic.now).consume((h) => vm.setProp(d, 'now', h));
        vm.newNumber(req.deterministic.seed).consume((h) => vm.setProp(d, 'seed', h));
        vm.setProp(opts, 'deterministic', d);
        d.dispose();
      }
      const called = vm.callFunction(this.execute, vm.undefined, code, opts);
      if (called.error) return this.failed(called.error);
      return await this.settle(called.value);
    } finally {
      opts.dispose();
      code.dispose();
    }
  }

  /** The outcome string, or the promise of one pumped to its end by the host. Consumes `value`. */
  private async settle(value: QuickJSHandle): Promise<[RawStatus, Partial<RawRunOutcome>]> {
    const vm = this.vm;
    let lastYield = performance.now();
    try {
      for (;;) {
        if (this.stopReason) return this.stopped();
        const state = vm.getPromiseState(value);
        if (state.type !== 'pending' && !this.rt.hasPendingJob()) {
          // QuickJS drops a job it cannot allocate: a microtask flood that filled the memory "ends"
          // with its queue empty. At the memory limit the run's value cannot be trusted: the limit.
          if (growWasRefused(this.memory.wasm) || this.memoryFull()) {
            if (state.type === 'rejected') state.error.dispose();
            if (state.type === 'fulfilled' && !state.notAPromise) state.value.dispose();
            this.stopReason ??= 'memory';
            return this.stopped();
          }
          if (state.type === 'rejected') return this.failed(state.error);
          if (!state.notAPromise) return state.value.consume((v) => this.outcome(v));
          return this.outcome(value);
        }
        if (state.type === 'fulfilled' && !state.notAPromise) state.value.dispose();
        if (state.type === 'rejected') state.error.dispose();
        // Jobs are pumped by the host in slices, with the clock checked between slices: like V8,
        // which runs the microtasks a script queued before it returns, a run is done only when
        // its job queue is empty, so a microtask flood ends at the deadline as a TIMEOUT.
        if (this.rt.hasPendingJob()) {
          if (performance.now() > this.deadline) this.stopReason ??= 'timeout';
          if (this.stopReason) return this.stopped();
          const jobs = this.rt.executePendingJobs(JOB_SLICE);
          if (jobs.error) return this.failed(jobs.error);
          if (performance.now() - lastYield > YIELD_EVERY_MS) {
            await new Promise<void>((resolve) => setImmediate(resolve));
            lastYield = performance.now();
          }
          continue;
        }
        // Pending with no job queued: nothing in the guest can settle it (no timers, no I/O).
        // Like isolated-vm, the run ends at its deadline (or at an abort/close).
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          if (this.stopReason) resolve();
        });
        this.wake = undefined;
      }
    } finally {
      if (value.alive) value.dispose();
    }
  }

  private outcome(h: QuickJSHandle): [RawStatus, Partial<RawRunOutcome>] {
    if (this.vm.typeof(h) !== 'string') return ['internal', { message: 'the prelude returned a non-string outcome' }];
    const json = this.vm.getString(h);
    // QuickJS reports out-of-memory as a catchable InternalError; the prelude turns it into a
    // failure outcome. It is the session's limit, not the code's bug: MEMORY_LIMIT, and a reset.
    if (/^\{"ok":false,"error":\{"name":"InternalError","message":"out of memory"/.test(json)) {
      this.stopReason ??= 'memory';
      return this.stopped();
    }
    // The prelude's last resort (it could not even build an error outcome): at the allocation
    // limit that is the limit (the error it failed on may have been a `null` QuickJS throws when
    // even the out-of-memory error cannot be allocated), anything else stays the prelude's error.
    if (json.startsWith(FALLBACK_PREFIX) && this.allocationsExhausted()) {
      this.stopReason ??= 'memory';
      return this.stopped();
    }
    return ['ok', { outcomeJson: json }];
  }

  /** A failure the prelude did not turn into an outcome: a limit, or an exception of the engine. Consumes `err`. */
  private failed(err: QuickJSHandle): [RawStatus, Partial<RawRunOutcome>] {
    const info = err.consume((e) => quickJsFailure(this.vm, e));
    if (this.stopReason) return this.stopped();
    if (info.interrupted) {
      this.stopReason = 'timeout';
      return this.stopped();
    }
    // an "out of memory" InternalError, or whatever a job threw when even that error could not be
    // allocated (QuickJS throws `null` then: a microtask flood ends this way at the limit)
    if (info.outOfMemory || this.allocationsExhausted()) {
      this.stopReason = 'memory';
      return this.stopped();
    }
    return ['ok', { outcomeJson: info.outcomeJson }];
  }

  /** Whether QuickJS can allocate no more: a grow was refused, the memory is full, or its malloc accounting is at the limit. */
  private allocationsExhausted(): boolean {
    if (growWasRefused(this.memory.wasm) || this.memoryFull()) return true;
    try {
      const usage = this.rt.computeMemoryUsage().consume((h) => this.vm.dump(h) as unknown);
      const u = usage as { malloc_size?: unknown; malloc_limit?: unknown };
      if (typeof u.malloc_size !== 'number' || typeof u.malloc_limit !== 'number' || u.malloc_limit <= 0) return false;
      return u.malloc_size + FULL_SLACK_BYTES >= u.malloc_limit;
    } catch {
      return true; // not even the usage object could be allocated
    }
  }

  private memoryFull(): boolean {
    try {
      return this.memory.wasm.buffer.byteLength + FULL_SLACK_BYTES >= this.memory.maxBytes;
    } catch {
      return false;
    }
  }

  private stopped(): [RawStatus, Partial<RawRunOutcome>] {
    switch (this.stopReason) {
      case 'aborted':
        return ['aborted', { message: 'the run was cancelled by its AbortSignal' }];
      case 'memory':
        return ['memory', { message: `exceeded the memory limit of ${this.limits.memoryLimitMb} MB` }];
      case 'timeout':
        return ['timeout', { message: 'did not finish within the time limit' }];
      default:
        return ['internal', { message: 'the session was closed while the code ran' }];
    }
  }

  private stop(reason: DisposeReason): void {
    this.stopReason ??= reason;
    this.wake?.();
  }

  /** Dispose the runtime (at once, or when the run in flight has unwound). Idempotent. */
  dispose(reason: DisposeReason = 'closed'): void {
    this.stop(reason);
    if (!this.running) this.free();
  }

  private free(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.poisoned) return;
    try {
      this.execute.dispose();
    } catch {
      // freed with the instance below
    }
    freeQuietly(this.vm, this.rt);
  }

  /**
   * The session's WASM memory in MiB: everything its runtime allocated (heap, columns, engine).
   * Not QuickJS's computeMemoryUsage, which walks every object (seconds after a promise flood).
   */
  private heapUsedMb(): number {
    try {
      return round(this.memory.wasm.buffer.byteLength / 1048576);
    } catch {
      return 0;
    }
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * CPU time of this process; on the edge there is none to read (Workers have no `process`, Vercel's
 * Edge Runtime one with `env` only), so it counts as 0.
 */
function cpuNow(since?: { user: number; system: number }): { user: number; system: number } {
  return typeof globalThis.process?.cpuUsage === 'function' ? process.cpuUsage(since) : { user: 0, system: 0 };
}
