import { RunAnalysisInputSchema, type RunAnalysisInput } from '../../schema/tool.js';
import { importOptional } from '../core/optionalPeer.js';
import { createToolCore, type ToolAdapterOptions } from './toolCore.js';
import type { ToolOutput } from './toolOutput.js';

/**
 * The tool aiSdkTool() returns: what the AI SDK's `tool()` makes of it, written out here so that
 * this package's types do not import `ai` (an optional peer a TypeScript user may not have). It is
 * assignable to the AI SDK's `Tool` (`generateText({ tools: { run_analysis: t } })`).
 */
export interface AiSdkRunTool {
  description: string;
  inputSchema: typeof RunAnalysisInputSchema;
  execute: (input: RunAnalysisInput, options: { abortSignal?: AbortSignal }) => Promise<ToolOutput>;
}

/** The part of the `ai` package this adapter uses; pass `await import('ai')` to skip the dynamic import. */
export interface AiSdkModule {
  tool: (t: AiSdkRunTool) => unknown;
}

/**
 * The `run_analysis` tool for the Vercel AI SDK (`generateText({ tools: { run_analysis: ... } })`).
 * `ai` is an optional peer dependency: it is imported only when this function is called.
 * Close the sessions by passing your own `sessions` store (createSessionStore()) and closing it.
 * @throws {OptionalDependencyError} OPTIONAL_DEPENDENCY_MISSING when the `ai` package is not installed (the message says how to install it).
 * @example
 * const { text } = await generateText({ model, tools: { run_analysis: await aiSdkTool() }, stopWhen: stepCountIs(5), prompt });
 */
export async function aiSdkTool(options: ToolAdapterOptions & { ai?: AiSdkModule } = {}): Promise<AiSdkRunTool> {
  const ai = options.ai ?? (await loadAi());
  const core = await createToolCore(options);
  // ai's tool() returns the definition it was given (typed as the SDK's Tool)
  return ai.tool({
    description: core.description,
    // zod 4 implements Standard Schema: the AI SDK validates the model's input with it and sends its JSON Schema.
    inputSchema: RunAnalysisInputSchema,
    execute: (input, { abortSignal }) => core.execute(input, abortSignal),
  }) as AiSdkRunTool;
}

async function loadAi(): Promise<AiSdkModule> {
  return (await importOptional(
    'ai',
    'aiSdkTool() (the Vercel AI SDK tool, ai 5 or later)',
    () => import('ai'),
  )) as unknown as AiSdkModule;
}
