import { createToolCore, type ToolAdapterOptions } from './toolCore.js';
import type { JsonSchemaObject } from './inputJsonSchema.js';
import type { SessionStore } from './sessionStore.js';
import type { ToolOutput } from './toolOutput.js';

/** An Anthropic Messages API tool, plus the function that runs its `tool_use` blocks. */
export interface AnthropicTool {
  definition: { name: string; description: string; input_schema: JsonSchemaObject };
  /** Run one `tool_use` block: pass its `input`. Send the returned object back as the tool_result content (JSON.stringify it). */
  execute(input: unknown, signal?: AbortSignal): Promise<ToolOutput>;
  sessions: SessionStore;
  /** Close the tool's sessions (a shared `sessions` store is left to its owner). Idempotent. */
  close(): Promise<void>;
}

/**
 * The `run_analysis` tool for Anthropic's Messages API `tools` array.
 * @example
 * const t = await anthropicTool();
 * const msg = await anthropic.messages.create({ model, max_tokens, messages, tools: [t.definition] });
 * for (const block of msg.content) if (block.type === 'tool_use') await t.execute(block.input);
 */
export async function anthropicTool(options: ToolAdapterOptions = {}): Promise<AnthropicTool> {
  const core = await createToolCore(options);
  return {
    definition: { name: core.name, description: core.description, input_schema: core.parameters },
    execute: core.execute,
    sessions: core.sessions,
    close: () => (options.sessions ? Promise.resolve() : core.sessions.close()),
  };
}
