import type { Limits, PresetName } from '../../../schema/limits.js';
import type { ColumnarTable } from '../../../schema/columnar.js';
import type { EngineChoice } from '../../../schema/engine.js';
import type { DecodeCaps } from '../../data/formats/decodeCaps.js';

/** Where award_data comes from; resolved on the host, opened in the holder. Mirrors src/data DataSource. */
export interface DataSourceSpec {
  kind: 'csv' | 'synthetic' | 'remote';
  path?: string;
  /** A built data folder's URL (kind 'remote'; src/data/remote/). */
  url?: string;
  remote?: import('../../data/remote/remoteOptions.js').RemoteOptions;
  cacheDir: string;
}

/** An extra table for a session: a CSV path (ingested in the holder) or an already columnar table. */
export type TableSpec =
  | { name: string; kind: 'csv'; path: string }
  /** A Parquet/Arrow/JSON file, decoded in the holder (in a worker thread) and kept like CSV tables. */
  | {
      name: string;
      kind: 'file';
      path: string;
      format: 'parquet' | 'arrow' | 'json' | 'ndjson';
      /** Caps the sandbox's options set (tableFileMaxMb, tableInflateMaxMb) over the host-scaled defaults. */
      caps?: Partial<DecodeCaps>;
    }
  | { name: string; kind: 'columnar'; table: ColumnarTable };

/** Everything a holder needs to open one session. Structured-clone safe (it crosses IPC). */
export interface SessionSpec {
  limits: Limits;
  /** award_data; null for a sandbox without the SBIR table. */
  data: DataSourceSpec | null;
  tables: TableSpec[];
  /** Which engine runs the session (docs/engines.md); absent means 'auto'. */
  engine?: EngineChoice;
}

/**
 * Where a session's isolate lives: 'low' puts it in a holder at a lower CPU scheduling priority
 * (HolderPool), so the kernel runs other sessions' code first when the cores are contended.
 */
export type SessionPriority = 'normal' | 'low';

/**
 * One run as it leaves the host: the program as sent (BOM removed, size already checked). Where
 * the session lives, checkAndPrepare.ts parses it once (policy + transform) inside the deadline.
 */
export interface SourceRunRequest {
  source: string;
  /** Which policy rule set applies. */
  preset: PresetName;
  /** Milliseconds the run may take, parse included, measured from when the holder receives it. */
  timeoutMs: number;
  deterministic?: { now: number; seed: number };
  /** Send what the code prints as `output` events while it runs (the reply still carries all of it). */
  streamOutput?: boolean;
  /**
   * The caller's round trip in idle time (sandbox.ts `warmWhenIdle`): answered by the session's
   * host without a check and without entering the isolate, so that the run path on both sides of
   * the channel is compiled before the session's first question. Not a run: the session's idle
   * warm-up goes on, and its first run is still the caller's.
   */
  warm?: true;
}

export type { OutputListener } from '../engines/engineSession.js';

export type HolderRequest =
  | { id: number; op: 'open'; sessionId: string; spec: SessionSpec }
  | { id: number; op: 'run'; sessionId: string; run: SourceRunRequest }
  | { id: number; op: 'abort'; sessionId: string }
  | { id: number; op: 'close'; sessionId: string }
  | { id: number; op: 'stats' };

export type HolderReply =
  | { id: number; ok: true; data: unknown }
  | { id: number; ok: false; error: { code: string; message: string; hint?: string } };

/** Unsolicited messages from a holder. */
export type HolderEvent =
  | { event: 'ready'; pid: number; engine: string }
  | { event: 'catastrophe'; message: string }
  /** engine 'auto' fell back to QuickJS in this holder; the host says so (engineFallback.ts) */
  | { event: 'engine-fallback'; reason: string }
  | { event: 'progress'; message: string }
  /** A lazily decoded table column is being decoded (or is done): the holder grew by `grownBytes` for tables so far. */
  | { event: 'table-memory'; decoding: boolean; grownBytes: number }
  /** Output a streaming run wrote (coalesced), sent before the run's reply. */
  | { event: 'output'; sessionId: string; stream: 'stdout' | 'stderr'; text: string };
