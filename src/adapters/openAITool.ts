import { createToolCore, type ToolAdapterOptions } from './toolCore.js';
import { strictJsonSchema, type JsonSchemaObject } from './inputJsonSchema.js';
import type { SessionStore } from './sessionStore.js';
import type { ToolOutput } from './toolOutput.js';

/** An OpenAI Chat Completions function tool, plus the function that runs its calls. */
export interface OpenAITool {
  definition: {
    type: 'function';
    function: { name: string; description: string; parameters: JsonSchemaObject; strict?: boolean };
  };
  /** Run one tool call: pass `tool_call.function.arguments` (the JSON string) or the parsed object. */
  execute(args: unknown, signal?: AbortSignal): Promise<ToolOutput>;
  sessions: SessionStore;
  /** Close the tool's sessions (not a shared `sessions` store's owner's job). Idempotent. */
  close(): Promise<void>;
}

/**
 * The `run_analysis` tool for OpenAI's Chat Completions `tools` array.
 * @param options.strict set `strict: true` (every argument required, `session_id` nullable). @default false
 * @example
 * const t = await openAITool();
 * const res = await openai.chat.completions.create({ model, messages, tools: [t.definition] });
 * for (const call of res.choices[0].message.tool_calls ?? []) await t.execute(call.function.arguments);
 */
export async function openAITool(options: ToolAdapterOptions & { strict?: boolean } = {}): Promise<OpenAITool> {
  const core = await createToolCore(options);
  const parameters = options.strict ? strictJsonSchema(core.parameters) : core.parameters;
  return {
    definition: {
      type: 'function',
      function: {
        name: core.name,
        description: core.description,
        parameters,
        ...(options.strict ? { strict: true } : {}),
      },
    },
    execute: core.execute,
    sessions: core.sessions,
    close: () => (options.sessions ? Promise.resolve() : core.sessions.close()),
  };
}
