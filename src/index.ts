// sbirtools public API: a plain list of re-exports. See docs/architecture.md for the layers.
export { run, createSandbox, Sandbox, type RunOptions } from './runtime/sandbox.js';
export { createPool, Pool, type PoolOptions } from './runtime/pool.js';
export type { SandboxOptions, TableInput } from './runtime/options.js';
export { SbirtoolsError, SbirtoolsValidationError, SandboxClosedError } from './runtime/errors.js';
export { EngineLoadError, loadEngine } from './runtime/engine.js';
export { liveSandboxCount, closeAllSandboxes } from './runtime/liveSandboxes.js';
export { shutdownDefaultBackends as shutdown } from './runtime/defaultBackend.js';
export { liveIsolates } from './runtime/liveIsolates.js';
export { PRESETS, PRESET_NAMES, DEFAULT_PRESET, LimitsSchema, resolveLimits, type Limits, type PresetName } from '../schema/limits.js';
export { RunResultSchema, TableResultSchema, ChartSchema, DatasetInfoSchema, type RunResult, type TableResult, type Chart, type DatasetInfo } from '../schema/result.js';
export { ERROR_TYPES, RunErrorSchema, type ErrorType, type RunError, type Violation } from '../schema/errors.js';
export { checkCode, rulesFor } from './policy/index.js';
