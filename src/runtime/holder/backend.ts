import type { DatasetInfo } from '../../../schema/result.js';
import type { OutputListener, SessionPriority, SourceRunRequest, SessionSpec } from './protocol.js';
import type { RawRunOutcome } from '../../../schema/outcome.js';

/** Where sessions live: holder processes (the default) or this process (`isolation: 'inline'`). */
export interface Backend {
  /** `priority` 'low': where the backend has a low-priority lane, the session lives there (HolderPool). */
  open(sessionId: string, spec: SessionSpec, priority?: SessionPriority): Promise<{ dataset: DatasetInfo | undefined }>;
  /** `onOutput` receives what the code prints while it runs (coalesced; all of it is in the outcome too). */
  run(
    sessionId: string,
    req: SourceRunRequest,
    signal?: AbortSignal,
    onOutput?: OutputListener,
  ): Promise<RawRunOutcome & { reset: boolean }>;
  close(sessionId: string): Promise<void>;
  /** Isolates alive in this backend (the leak check asserts 0 once every sandbox is closed). */
  liveIsolates(): Promise<number>;
  shutdown(): Promise<void>;
}

export function emptyOutcome(
  status: RawRunOutcome['status'],
  message: string,
  wallMs = 0,
): RawRunOutcome & { reset: boolean } {
  return {
    status,
    message,
    stdout: '',
    stderr: '',
    outputTruncated: false,
    stats: { wallMs, cpuMs: 0, heapUsedMb: 0 },
    reset: false,
  };
}
