import { Worker } from 'node:worker_threads';
import type { PresetName } from '../../../schema/limits.js';
import { checkAndPrepare, type CheckedCode } from './checkAndPrepare.js';
import { codeCheckWorkerPath } from '../../core/paths.js';
import { WARM_PROGRAMS } from './warmPrograms.js';

/**
 * Programs up to this many UTF-16 units are parsed on the calling thread. Measured (Node 20,
 * 2-core VM, warm): typical model-written code (< 2 KB) takes 0.1-0.3 ms; the worst shape, 16 K
 * of one-token statements, 10-20 ms. Anything larger goes to a worker thread that is terminated
 * at the deadline, so the thread serving runs is never blocked for longer than this bound.
 */
export const INLINE_CHECK_MAX_UNITS = 16 * 1024;
/**
 * And never more than this many units per millisecond of the run's deadline (the worst shape
 * parses at ~1.5 units/µs): with a tiny deadline even mid-sized code goes to the worker.
 */
const INLINE_UNITS_PER_MS = 512;
/** The worker's stack, as the main thread's (~1 MB): nesting too deep there is too deep here. */
const WORKER_STACK_MB = 1;
/**
 * Recent small programs that passed, and their prepared form (checkAndPrepare is a pure function
 * of source and preset): a repeated cell skips the parse. Bounded in entries and, by the inline
 * rule above, in source size. Failures are not kept: their error objects reach the caller as
 * they are (isolation 'inline'), and a caller may change them.
 */
const MEMO_ENTRIES = 64;

/**
 * Runs checkAndPrepare (one parse: policy + transform) where it cannot hold up the thread that
 * serves runs: in place for small programs, in a worker thread for large ones. The worker is
 * terminated when the run's deadline passes or the run is cancelled: the time spent parsing is
 * part of the run's time limit. Used by SessionHost, in the holder process (isolation 'process')
 * and on the host (isolation 'inline') alike; engine-neutral.
 */
export class CodeChecker {
  private readonly workers = new Set<Worker>();
  /** Worker checks in flight, by the caller's key (a session id), for cancel(). */
  private readonly inFlight = new Map<string, () => void>();
  private readonly memo = new Map<string, CheckedCode>();
  private readonly heapMb = new WeakMap<Worker, number>();

  /**
   * Check and prepare `source` within `budgetMs`.
   * A small program is answered synchronously (no promise): the common case costs no tick.
   * @param key - names the check for cancel() (the session id).
   * @returns the checked code; a check the deadline cut off is a TIMEOUT error (the session is
   *   untouched); 'aborted' when cancel(key) stopped it.
   * @example
   * const out = await checker.check('1 + 1', 'standard', 30_000, 512, 'session-1');
   * if (out !== 'aborted' && out.ok) out.prepared.code; // '1 + 1'
   */
  check(
    source: string,
    preset: PresetName,
    budgetMs: number,
    memoryLimitMb: number,
    key: string,
  ): CheckedCode | Promise<CheckedCode | 'aborted'> {
    if (source.length > Math.min(INLINE_CHECK_MAX_UNITS, budgetMs * INLINE_UNITS_PER_MS))
      return this.inWorker(source, preset, budgetMs, memoryLimitMb, key);
    const memoKey = preset + '\u0000' + source;
    const known = this.memo.get(memoKey);
    if (known) {
      // most recently used last: the oldest entry is the first one evicted
      this.memo.delete(memoKey);
      this.memo.set(memoKey, known);
      return known;
    }
    const checked = checkAndPrepare(source, preset);
    if (!checked.ok) return checked;
    // kept frozen: callers copy `prepared` into their run request, none may change the entry
    Object.freeze(checked.prepared);
    this.memo.set(memoKey, Object.freeze(checked));
    if (this.memo.size > MEMO_ENTRIES) this.memo.delete(this.memo.keys().next().value!);
    return checked;
  }

  /**
   * Check and prepare a few programs in the shapes models write (warmPrograms.ts) on this thread,
   * answers thrown away and nothing memoised, so the session's first real program does not pay for
   * compiling the parser and the transform (SessionHost.open, while the session's isolate warms
   * up). Programs [from, to) only: a session warmed in idle time checks one per slice
   * (holder/idleWarmUp.ts). Returns how many did not pass (none should: a test checks).
   */
  warmUp(from = 0, to = WARM_PROGRAMS.length): number {
    let failed = 0;
    for (let i = from; i < Math.min(to, WARM_PROGRAMS.length); i++)
      if (!checkAndPrepare(WARM_PROGRAMS[i]!, 'standard').ok) failed++;
    return failed;
  }

  /**
   * MiB of heap the worker checks in flight may use (each is capped at its run's limit): the
   * holder's memory watchdog adds it to the budget of the runs it polices, so a large parse
   * beside them is not mistaken for their growth.
   */
  get workerBudgetMb(): number {
    let mb = 0;
    for (const w of this.workers) mb += this.heapMb.get(w) ?? 0;
    return mb;
  }

  /** Stop the worker check named `key`, if one is in flight; true when one was. */
  cancel(key: string): boolean {
    const stop = this.inFlight.get(key);
    stop?.();
    return !!stop;
  }

  /** Terminate workers still parsing (session host shutdown). */
  close(): void {
    for (const stop of [...this.inFlight.values()]) stop();
    for (const w of this.workers) void w.terminate();
    this.workers.clear();
  }

  private inWorker(
    source: string,
    preset: PresetName,
    budgetMs: number,
    memoryLimitMb: number,
    key: string,
  ): Promise<CheckedCode | 'aborted'> {
    return new Promise((resolve) => {
      // the AST of a large program takes several times its size: the run's memory limit applies
      const worker = new Worker(codeCheckWorkerPath(), {
        workerData: { source, preset },
        resourceLimits: { maxOldGenerationSizeMb: memoryLimitMb, stackSizeMb: WORKER_STACK_MB },
        env: {},
        stdout: true,
        stderr: true,
      });
      this.workers.add(worker);
      this.heapMb.set(worker, memoryLimitMb);
      let settled = false;
      const finish = (out: CheckedCode | 'aborted') => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (this.inFlight.get(key) === onAbort) this.inFlight.delete(key);
        this.workers.delete(worker);
        void worker.terminate();
        resolve(out);
      };
      const onAbort = () => finish('aborted');
      const timer = setTimeout(() => finish(parseTimeout(budgetMs)), budgetMs);
      this.inFlight.set(key, onAbort);
      worker.once('message', (out: CheckedCode) => finish(out));
      worker.once('error', (err: Error & { code?: string }) => finish(workerFailure(err, memoryLimitMb)));
      worker.once('exit', () =>
        finish(workerFailure(new Error('the code-check worker exited without an answer'), memoryLimitMb)),
      );
    });
  }
}

/** The deadline passed while the program was still being parsed: it never ran. */
export function parseTimeout(timeoutMs: number): CheckedCode {
  return {
    ok: false,
    error: {
      type: 'TIMEOUT',
      message: `The code could not be checked (parsed) within the ${timeoutMs} ms time limit, so it did not run.`,
      hint: 'Send shorter code: award_data is already loaded, so no data needs to be pasted into the code; split the work over several runs. The session state is kept.',
    },
  };
}

function workerFailure(err: Error & { code?: string }, memoryLimitMb: number): CheckedCode {
  if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return {
      ok: false,
      error: {
        type: 'MEMORY_LIMIT',
        message: `Parsing the code needed more than the ${memoryLimitMb} MB memory limit; the code did not run.`,
        hint: 'Send shorter code: award_data is already loaded, so no data needs to be pasted into the code; split the work over several runs. The session state is kept.',
      },
    };
  }
  return {
    ok: false,
    error: {
      type: 'INTERNAL_ERROR',
      message: `sbirtools failed while checking the code: ${err.message}.`,
      hint: 'This is not a mistake in your code as far as sbirtools can tell; retry once. The session state is kept.',
    },
  };
}
