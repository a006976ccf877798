import type { RunError } from './errors.js';
import type { EngineLabel } from './engine.js';

/** 'rejected': the code never reached the isolate (syntax error, policy, too slow to parse); see `error`. */
export type RawStatus = 'ok' | 'timeout' | 'memory' | 'aborted' | 'queue_full' | 'internal' | 'rejected';

/** What a holder answers for a run; the host turns it into a RunResult (src/result/buildResult.ts). */
export interface RawRunOutcome {
  status: RawStatus;
  /** The guest's GuestOutcome JSON string (status 'ok' only). */
  outcomeJson?: string;
  stdout: string;
  stderr: string;
  outputTruncated: boolean;
  /** For non-ok statuses: what happened, for the error message. */
  message?: string;
  /** Status 'rejected' only: the error exactly as the caller sees it. */
  error?: RunError;
  stats: { wallMs: number; cpuMs: number; heapUsedMb: number };
  /** Files the run saved (already checked by FileSink: safe names, within maxFileBytes). */
  files?: OutFile[];
  /** The engine that ran it (set by the session host). */
  engine?: EngineLabel;
  /** False when the code never reached the isolate (always so for status 'rejected'); the session's state is kept. */
  codeRan?: false;
}

/** One saved file as it travels from the holder (binary: structured clone keeps the Uint8Array). */
export interface OutFile {
  name: string;
  mediaType: string;
  bytes: Uint8Array;
}
