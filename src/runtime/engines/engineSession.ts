import type { ColumnData, TableMeta, TextScanRequest } from '../../../schema/columnar.js';
import type { RawRunOutcome } from '../../../schema/outcome.js';
import type { FunctionForm } from '../../../schema/functionForm.js';

/** One run, already checked by the policy and prepared by transform.ts: what a session evaluates. */
export interface GuestRunRequest {
  code: string;
  async: boolean;
  lineOffset: number;
  resultName: boolean;
  /** The code's function form (schema/functionForm.ts), when the code check made one: the guest then parses nothing to run it. */
  form?: FunctionForm;
  /** Milliseconds the run may take, measured from when the holder receives it. */
  timeoutMs: number;
  deterministic?: { now: number; seed: number };
  /** In-process only (never sent): called with output as the code writes it. */
  onOutput?: OutputListener;
}

/** Receives a run's output as it is written (what the output cap keeps, in order). */
export type OutputListener = (stream: 'stdout' | 'stderr', text: string) => void;

/** A table a session can see: its description, and its columns on demand (synchronously). */
export interface TableProvider {
  meta: TableMeta;
  loadColumn(name: string): ColumnData;
  /**
   * Optional: the column for a caller that keeps its own copy of it (the isolate a session copies
   * it into): the provider need not keep one too, and decodes it again if it is asked for it later.
   */
  takeColumn?(name: string): ColumnData;
  /** Optional: the column's kind, for a column whose meta has `kindPending` (decoding it if need be). */
  columnKind?(name: string): ColumnData['kind'];
  /** Optional: rows [start, end) of a utf8 column not loaded yet, read alone (data/dataset.ts loadRows). */
  loadRows?(name: string, start: number, end: number, reuse?: boolean): Extract<ColumnData, { kind: 'utf8' }> | null;
  /** Optional: rows [start, end) of a non-text column not loaded yet, read alone (data/dataset.ts loadWindow). */
  loadWindow?(name: string, start: number, end: number): ColumnData | null;
  /** Optional: characters per row of a utf8 column without its text (data/dataset.ts textLengths). */
  textLengths?(name: string, start: number, end: number): Int32Array | null;
  /** Optional: UTF-16 units per row of a utf8 column without its text, or null (data/dataset.ts textUnits). */
  textUnits?(name: string, start: number, end: number): Int32Array | null;
  /** Optional: whether each row equals `needle` (1/0, 2 null) without its text, or null (data/dataset.ts textEquals). */
  textEquals?(name: string, start: number, end: number, needle: string): Uint8Array | null;
  /** Optional: a contains or an equals over every page of a utf8 column not loaded yet, or null (data/dataset.ts textScanPages). */
  textScanPages?(name: string, req: TextScanRequest, pageRows: number): (Uint8Array | null)[] | null;
  /**
   * Optional: decode the columns of `names` (a superset of what the next run reads) together,
   * before it starts, within `withinMs` (lazyParquet/lazyParquetTable.ts); the holder calls it.
   */
  prefetch?(names: readonly string[], withinMs: number): void;
  /** Optional: forget the prefetched columns the run did not read (after each run). */
  releasePrefetched?(): void;
  /**
   * Optional: run this provider's column read path once, keeping nothing, so a session's first
   * column costs its bytes rather than the code's first run (the holder's idle warm-up calls it).
   */
  warmReads?(): void;
}

/** Why a session's isolate was disposed: decides how a run in flight is reported. */
export type DisposeReason = 'timeout' | 'memory' | 'aborted' | 'closed';

/**
 * The contract every engine keeps (docs/engines.md): one isolate (a V8 isolate or a QuickJS
 * runtime) with the prelude booted and the session's tables attached; state persists between runs
 * until dispose. Implemented by IsolatedVmSession (isolated-vm) and QuickJsSession (QuickJS in WASM).
 */
export interface EngineSession {
  /** False once disposed (by a limit, an abort or close) or lost: the host then opens a new one. */
  readonly alive: boolean;
  /** True while a run is in flight (the memory watchdog and the spare builder look at it). */
  readonly isRunning: boolean;
  /** Run prepared code under the deadline and the limits. Never throws: every failure is a RawRunOutcome. */
  run(req: GuestRunRequest): Promise<RawRunOutcome>;
  /** Dispose the isolate; `reason` decides how a run in flight is reported. Idempotent. */
  dispose(reason?: DisposeReason): void;
  /**
   * Optional: warm the prelude's common paths (prelude/runtime/warmUp.ts) in an isolate no run has
   * touched, within `timeoutMs`. Resolves false, running nothing, once any run has started; throws
   * when the warm-up failed or timed out (the isolate's state is then unknown: dispose it).
   */
  warmUp?(timeoutMs: number): Promise<boolean>;
  /**
   * Optional: one slice of that warm-up (slice 0 first, then 1, 2, ...: one question each), for a
   * session warmed in idle time (holder/idleWarmUp.ts), within `timeoutMs`. Resolves 'more' or
   * 'done' (that was the last), 'refused' (running nothing) once any run has started; throws when
   * the slice failed or timed out (dispose the isolate, as for warmUp).
   */
  warmSlice?(slice: number, timeoutMs: number): Promise<'more' | 'done' | 'refused'>;
  /**
   * Optional: true while the engine's process has no warm code cache (preludeScript.ts
   * keepWarmCodeCache): the host then warms one spare (or session) it would otherwise leave cold,
   * once, so later isolates and processes start with the warm-up's functions compiled.
   */
  wantsWarmCodeCache?(): boolean;
  /**
   * Optional: after the warm-up has run to its end in this isolate, and before any run, make the
   * warm code cache from it (once per process). False, doing nothing, once a run has started.
   */
  keepWarmCodeCache?(): boolean;
}
