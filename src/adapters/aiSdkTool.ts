import type { Tool } from 'ai';
import { RunAnalysisInputSchema, type RunAnalysisInput } from '../../schema/tool.js';
import { createToolCore, type ToolAdapterOptions } from './toolCore.js';
import type { ToolOutput } from './toolOutput.js';

/** The part of the `ai` package this adapter uses; pass it to skip the dynamic import. */
export interface AiSdkModule {
  tool: (t: Tool<RunAnalysisInput, ToolOutput>) => Tool<RunAnalysisInput, ToolOutput>;
}

/**
 * The `run_analysis` tool for the Vercel AI SDK (`generateText({ tools: { run_analysis: ... } })`).
 * `ai` is an optional peer dependency: it is imported only when this function is called.
 * Close the sessions by passing your own `sessions` store (createSessionStore()) and closing it.
 * @throws {Error} when the `ai` package is not installed (the message says how to install it).
 * @example
 * const { text } = await generateText({ model, tools: { run_analysis: await aiSdkTool() }, stopWhen: stepCountIs(5), prompt });
 */
export async function aiSdkTool(options: ToolAdapterOptions & { ai?: AiSdkModule } = {}): Promise<Tool<RunAnalysisInput, ToolOutput>> {
  const ai = options.ai ?? (await loadAi());
  const core = await createToolCore(options);
  return ai.tool({
    description: core.description,
    // zod 4 implements Standard Schema: the AI SDK validates the model's input with it and sends its JSON Schema.
    inputSchema: RunAnalysisInputSchema,
    execute: (input, { abortSignal }) => core.execute(input, abortSignal),
  });
}

async function loadAi(): Promise<AiSdkModule> {
  try {
    return (await import('ai')) as unknown as AiSdkModule;
  } catch (err) {
    throw new Error(`aiSdkTool() needs the Vercel AI SDK: run \`npm install ai\` (version 5 or later). (${(err as Error).message})`);
  }
}
