// sbirtools public API: a plain list of re-exports. See docs/architecture.md for the layers.
export { run, createSandbox, Sandbox, type RunOptions, type OneShotOptions } from './sandbox/sandbox.js';
export { createPool, Pool, type PoolOptions } from './sandbox/pool.js';
export { prewarmSandbox } from './sandbox/prewarm.js';
export type { SandboxOptions, TableInput } from './sandbox/options.js';
export { SbirtoolsError, SbirtoolsValidationError, SandboxClosedError } from './core/errors.js';
export {
  EngineLoadError,
  engineInfo,
  engineStatus,
  ENGINE_FALLBACK_WARNING,
  type EngineStatus,
} from './sandbox/engines.js';
export { liveSandboxCount, closeAllSandboxes } from './sandbox/liveSandboxes.js';
export { shutdownDefaultBackends as shutdown } from './sandbox/defaultBackend.js';
export { liveIsolates } from './sandbox/liveIsolates.js';
export {
  PRESETS,
  PRESET_NAMES,
  DEFAULT_PRESET,
  LimitsSchema,
  resolveLimits,
  type Limits,
  type PresetName,
} from '../schema/limits.js';
export {
  RunResultSchema,
  TableResultSchema,
  ChartSchema,
  DatasetInfoSchema,
  type RunResult,
  type TableResult,
  type Chart,
  type DatasetInfo,
} from '../schema/result.js';
export { ERROR_TYPES, RunErrorSchema, type ErrorType, type RunError, type Violation } from '../schema/errors.js';
export { checkCode, rulesFor } from './policy/index.js';
export {
  RunAnalysisInputSchema,
  HandlerRequestSchema,
  RUN_ANALYSIS_TOOL_NAME,
  DESCRIBE_DATASET_TOOL_NAME,
  type RunAnalysisInput,
} from '../schema/tool.js';
export { createSessionStore, SessionStore, type SessionStoreOptions } from './adapters/sessionStore.js';
export { openAITool, type OpenAITool } from './adapters/openAITool.js';
export { anthropicTool, type AnthropicTool } from './adapters/anthropicTool.js';
export { OptionalDependencyError } from './core/optionalPeer.js';
export { aiSdkTool, type AiSdkModule, type AiSdkRunTool } from './adapters/aiSdkTool.js';
export type { ToolAdapterOptions } from './adapters/toolCore.js';
export { toToolOutput, type ToolOutput, type ToolOutputError } from './adapters/toolOutput.js';
export { resultText, formatError } from './adapters/resultText.js';
export {
  loadDataCard,
  defaultToolDescription,
  describeData,
  type DataCardView,
  type CardOptions,
} from './adapters/description.js';
export { renderChart, ChartRenderError } from './result/renderChart.js';
export { dataCard, type DataCard, type ColumnCard } from './result/dataCard.js';
export { toolDescription, TOOL_DESCRIPTION_MAX_CHARS } from './result/toolDescription.js';
export { createHandler, type HandlerOptions, type HandlerErrorBody } from './adapters/handler.js';
export { toNodeListener } from './adapters/nodeListener.js';
export { lambdaHandler, type LambdaHttpEvent, type LambdaHttpResult } from './adapters/lambdaHandler.js';
export { runResultHttp, runResultResponse, type RunHttpAnswer } from './result/runResultHttp.js';
export type { McpSdkServer, McpTransport } from './mcp/publicTypes.js';
export { createMcpServer, type McpServerOptions, type SbirtoolsMcpServer } from './mcp/createMcpServer.js';
export { serveStdio } from './mcp/serveStdio.js';
export { withCapsules, type RunFn, type CapsuleOptions } from './capsule/withCapsules.js';
export { replayCapsule, type ReplayOptions, type ReplayReport } from './capsule/replay.js';
export { readCapsules, type CapsuleEntry } from './capsule/readCapsules.js';
export { CapsuleRecordSchema, type CapsuleRecord } from './capsule/capsuleRecord.js';
export {
  CapsuleOutputsSchema,
  CUT_MARKER,
  type CapsuleOutputs,
  type CapsuleTable,
  type CapsuleChart,
} from './capsule/capsuleOutputs.js';
export { plotlyToVegaLite, PlotlyConversionError } from './result/plotlyToVegaLite.js';
export { createViewerHandler, type ViewerOptions, type ViewerHandler } from './viewer/createViewerHandler.js';
export { createViewer, type Viewer, type ViewerCoreOptions, type ViewerScope } from './viewer/createViewer.js';
export { renderReport, ReportError, type ReportOptions } from './viewer/renderReport.js';
export { createServer, type SbirtoolsServer } from './server/createServer.js';
export type { LimitsInForce } from './sandbox/limitsInForce.js';
export type { ServerOptions } from './server/options.js';
export type { Route } from './server/routes/route.js';
export type { RequestContext } from './server/context.js';
