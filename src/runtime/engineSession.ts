import type { GuestRunRequest, RawRunOutcome } from './protocol.js';

/** Why a session's isolate was disposed: decides how a run in flight is reported. */
export type DisposeReason = 'timeout' | 'memory' | 'aborted' | 'closed';

/** The engines a session can run on. */
export const ENGINE_NAMES = ['isolated-vm', 'quickjs'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/** The `engine` option: 'auto' is isolated-vm when it loads here, else the QuickJS WASM engine. */
export type EngineChoice = 'auto' | EngineName;

/** Which engine ran a session, as the result reports it. */
export interface EngineLabel {
  name: EngineName;
  /** The engine package's version: isolated-vm's (6.2.0, 7.0.1, 5.0.4) or quickjs-emscripten's. */
  version: string;
}

/**
 * The contract every engine keeps (docs/engines.md): one isolate (a V8 isolate or a QuickJS
 * runtime) with the prelude booted and the session's tables attached; state persists between runs
 * until dispose. Implemented by GuestSession (isolated-vm) and QuickJsSession (QuickJS in WASM).
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
}
