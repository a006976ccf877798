import { randomUUID } from 'node:crypto';
import type { Limits, PresetName } from '../../schema/limits.js';
import type { DatasetInfo, RunResult } from '../../schema/result.js';
import { addChartFiles, marksChartFiles } from '../result/chartFiles.js';
import { buildResult } from '../result/buildResult.js';
import type { Backend } from '../runtime/holder/backend.js';
import { SandboxClosedError, SbirtoolsValidationError } from '../core/errors.js';
import { emptyResult, precheck } from './precheck.js';
import { sandboxLimits } from './limitsInForce.js';
import { resolveSessionSpec, validateOptions, type SandboxOptions } from './options.js';
import { backendFor } from './defaultBackend.js';
import type { SessionSpec } from '../runtime/holder/protocol.js';
import { trackSandbox, untrackSandbox } from './liveSandboxes.js';

/**
 * How long a session must be open with no run asked for before its idle round trip
 * (Sandbox.warmWhenIdle): a one-shot run(code) or an MCP call asks within a few ms of the open and
 * never sends one; an agent's first question follows its model's thinking (hundreds of ms or more).
 */
export const WARM_ROUND_TRIP_MS = 250;

/** Per-run options. */
export interface RunOptions {
  /** Cancels the run; the result is `ABORTED` and the session is reset. */
  signal?: AbortSignal;
  /** Freeze Date.now() to this value and seed Math.random for this run (overrides the sandbox's `deterministic`). */
  deterministic?: { now: number; seed: number };
  /** Called with what the code prints while it runs (joined into pieces about every 100 ms, within the output cap); the result still has all of it. */
  onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
}

/** Options of the one-shot run(): sandbox options plus run options; `deterministic` may be either form. */
export type OneShotOptions = Omit<SandboxOptions, 'deterministic'> & {
  signal?: AbortSignal;
  onOutput?: RunOptions['onOutput'];
  /** true: a fixed clock and seed; an object: exactly this clock and seed. */
  deterministic?: boolean | { now: number; seed: number };
};

/**
 * A session: one isolate whose state persists between runs, with award_data (and any extra
 * tables) handed in once. Create it with createSandbox(); close it with close() or `await using`.
 */
export class Sandbox {
  private closedFlag = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** The idle round trip's timer (warmWhenIdle), cleared by the first run asked for and by close(). */
  private warmTimer: NodeJS.Timeout | undefined;

  /** @internal use createSandbox() */
  constructor(
    private readonly backend: Backend,
    private readonly id: string,
    private readonly spec: SessionSpec,
    readonly preset: PresetName,
    readonly dataset: DatasetInfo | undefined,
    private readonly deterministic: boolean,
  ) {}

  /** The limits every run of this sandbox gets. */
  get limits(): Limits {
    return this.spec.limits;
  }

  /** False once close() was called. */
  get alive(): boolean {
    return !this.closedFlag;
  }

  /**
   * Run code in this session. Guest failures (errors, limits) come back as `{ ok: false, error }`.
   * @throws {SandboxClosedError} after close(); {SbirtoolsValidationError} when `code` is not a string.
   * @example const r = await box.run("value_counts(award_data, 'Agency')");
   */
  run(code: string, options: RunOptions = {}): Promise<RunResult> {
    if (this.closedFlag) return Promise.reject(new SandboxClosedError());
    clearTimeout(this.warmTimer);
    try {
      checkRunOptions(options);
    } catch (err) {
      return Promise.reject(err);
    }
    // Runs of one session are serialized: state is shared, so order is the user's order.
    const next = this.queue.then(() => this.runNow(code, options));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * @internal createSandbox calls it. Once the session has been open WARM_ROUND_TRIP_MS with no run
   * asked for (an agent's model is thinking), one round trip of the host's trivial program through
   * this sandbox's own run path, answered by the session's host without entering the isolate
   * (protocol.ts `warm`): the first question then finds the caller's run path, the channel and the
   * reply's handling compiled. Its answer is dropped. A run asked for meanwhile waits for it in the
   * queue (one round trip); a run asked for before it, or close(), cancels it. Off with
   * SBIRTOOLS_WARM_IDLE=0, as the holder's idle warm-up is.
   */
  warmWhenIdle(): void {
    if (process.env.SBIRTOOLS_WARM_IDLE === '0') return;
    this.warmTimer = setTimeout(() => {
      this.warmTimer = undefined;
      this.queue = this.queue.then(() => this.runNow('0', {}, true)).catch(() => undefined);
    }, WARM_ROUND_TRIP_MS);
    this.warmTimer.unref();
  }

  private async runNow(code: string, options: RunOptions, warm = false): Promise<RunResult> {
    if (this.closedFlag) throw new SandboxClosedError();
    const started = performance.now();
    const checked = precheck(code, this.spec.limits);
    if (!checked.ok) return { ...checked.result, ...(this.dataset ? { dataset: this.dataset } : {}) };
    if (options.signal?.aborted) {
      return buildResult(
        {
          status: 'aborted',
          stdout: '',
          stderr: '',
          outputTruncated: false,
          stats: { wallMs: 0, cpuMs: 0, heapUsedMb: 0 },
          codeRan: false,
        },
        { code: checked.code, limits: this.spec.limits, dataset: this.dataset },
      );
    }
    const deterministic =
      options.deterministic ?? (this.deterministic ? { now: Date.UTC(2026, 0, 1), seed: 1 } : undefined);
    // The policy check and the notebook transform happen where the session lives, inside the
    // deadline (sessionHost.ts): a large program never blocks this thread.
    const raw = await this.backend.run(
      this.id,
      {
        source: checked.code,
        preset: this.preset,
        timeoutMs: this.spec.limits.timeoutMs,
        ...(deterministic ? { deterministic } : {}),
        ...(warm ? { warm: true as const } : {}),
      },
      options.signal,
      options.onOutput,
    );
    if (raw.status === 'rejected' && raw.error) {
      // refused before it ran (syntax, policy, a parse past the deadline): nothing of the session changed
      return {
        ...emptyResult(this.spec.limits, raw.error),
        ...(this.dataset ? { dataset: this.dataset } : {}),
        ...(raw.reset ? { sessionReset: true } : {}),
      };
    }
    const built = buildResult(raw, {
      code: checked.code,
      limits: this.spec.limits,
      dataset: this.dataset,
      reset: raw.reset,
    });
    const result = marksChartFiles(built) ? await addChartFiles(built) : built;
    result.stats.wallMs = Math.round((performance.now() - started) * 100) / 100;
    return result;
  }

  /** Dispose the isolate. Idempotent; waits for a run in flight to end. */
  async close(): Promise<void> {
    if (this.closedFlag) return;
    this.closedFlag = true;
    clearTimeout(this.warmTimer);
    untrackSandbox(this);
    await this.queue;
    await this.backend.close(this.id);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/**
 * Create a session sandbox.
 * @throws {SbirtoolsValidationError} for bad options (the message names the option and the bad value).
 * @example
 * await using box = await createSandbox({ preset: 'standard' });
 * await box.run("const big = award_data.filter(d => d['Award Amount'] > 1000000)");
 * const r = await box.run('big.numRows()');
 */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const opts = validateOptions(options);
  const limits = sandboxLimits(opts);
  const spec = await resolveSessionSpec(opts, limits);
  const backend = backendFor(opts);
  const id = randomUUID();
  const { dataset } = await backend.open(id, spec, opts.priority);
  const box = new Sandbox(backend, id, spec, opts.preset ?? 'standard', dataset, opts.deterministic ?? false);
  trackSandbox(box);
  box.warmWhenIdle();
  return box;
}

/**
 * One-shot: a fresh isolate for this code, disposed afterwards.
 * @example const r = await run('print(award_data.numRows()); 6 * 7'); // r.value === 42
 */
export async function run(code: string, options: OneShotOptions = {}): Promise<RunResult> {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new SbirtoolsValidationError(
      `Expected options to be an object, got \`${options === null ? 'null' : Array.isArray(options) ? 'array' : typeof options}\``,
    );
  }
  const { signal, deterministic, onOutput, ...rest } = options;
  const perRun =
    deterministic && typeof deterministic === 'object' ? (deterministic as RunOptions['deterministic']) : undefined;
  const sandboxOptions: SandboxOptions =
    perRun || deterministic === undefined ? rest : { ...rest, deterministic: deterministic as boolean };
  const box = await createSandbox(sandboxOptions);
  try {
    return await box.run(code, {
      ...(signal ? { signal } : {}),
      ...(onOutput ? { onOutput } : {}),
      ...(perRun ? { deterministic: perRun } : {}),
    });
  } finally {
    await box.close();
  }
}

/** Per-run options, checked before anything starts. */
function checkRunOptions(options: unknown): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new SbirtoolsValidationError(
      `Expected run options to be an object, got \`${options === null ? 'null' : Array.isArray(options) ? 'array' : typeof options}\``,
    );
  }
  const { signal, deterministic, onOutput, ...rest } = options as RunOptions;
  const unknown = Object.keys(rest);
  if (unknown.length)
    throw new SbirtoolsValidationError(
      `Unknown run option \`${unknown[0]}\`. Known run options: signal, deterministic, onOutput.`,
    );
  if (onOutput !== undefined && typeof onOutput !== 'function') {
    throw new SbirtoolsValidationError(
      `Expected the \`onOutput\` option to be a function (stream, text) => void, got \`${onOutput === null ? 'null' : typeof onOutput}\``,
    );
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new SbirtoolsValidationError(
      `Expected the \`signal\` option to be an AbortSignal, got \`${signal === null ? 'null' : typeof signal}\``,
    );
  }
  if (deterministic !== undefined) {
    const d = deterministic as { now?: unknown; seed?: unknown };
    if (
      !d ||
      typeof d !== 'object' ||
      typeof d.now !== 'number' ||
      !Number.isFinite(d.now) ||
      typeof d.seed !== 'number' ||
      !Number.isInteger(d.seed)
    ) {
      throw new SbirtoolsValidationError(
        'Expected the `deterministic` run option to be { now: <ms since epoch, finite>, seed: <integer> }',
      );
    }
  }
}
