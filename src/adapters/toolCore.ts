import { RunAnalysisInputSchema, RUN_ANALYSIS_TOOL_NAME, type RunAnalysisInput } from '../../schema/tool.js';
import { SbirtoolsValidationError } from '../core/errors.js';
import { defaultToolDescription } from './description.js';
import { runAnalysisJsonSchema, type JsonSchemaObject } from './inputJsonSchema.js';
import { createSessionStore, type SessionStore, type SessionStoreOptions } from './sessionStore.js';
import { toToolOutput, type ToolOutput } from './toolOutput.js';
import { resolveMaxChars } from '../sandbox/textBudget.js';

/** Options shared by openAITool(), anthropicTool() and aiSdkTool(). */
export interface ToolAdapterOptions extends SessionStoreOptions {
  /** Tool name the model calls. @default 'run_analysis' */
  name?: string;
  /** Tool description. @default the generated description (data card + prelude summary) */
  description?: string;
  /** Share an existing session store (e.g. with an MCP server); else one is made from these options. */
  sessions?: SessionStore;
  /** Characters of output a model reads from one run (a call's `max_chars` overrides it). @default 16000 */
  maxResultChars?: number;
}

/** The vendor-neutral part of a tool adapter. */
export interface ToolCore {
  name: string;
  description: string;
  parameters: JsonSchemaObject;
  sessions: SessionStore;
  execute(args: unknown, signal?: AbortSignal): Promise<ToolOutput>;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Build the shared tool: name, description, JSON Schema and an execute() that runs the model's code.
 * @throws {SbirtoolsValidationError} for a bad name or bad session options.
 */
export async function createToolCore(options: ToolAdapterOptions = {}): Promise<ToolCore> {
  const name = options.name ?? RUN_ANALYSIS_TOOL_NAME;
  if (!NAME.test(name))
    throw new SbirtoolsValidationError(`Expected the \`name\` option to match ${NAME}, got \`${name}\``);
  let maxChars: number;
  try {
    maxChars = resolveMaxChars(options.maxResultChars);
  } catch (err) {
    throw new SbirtoolsValidationError((err as Error).message);
  }
  const sessions = options.sessions ?? createSessionStore(options);
  const description = options.description ?? (await defaultToolDescription({ ...options.sandbox, pool: options.pool }));
  return {
    name,
    description,
    parameters: runAnalysisJsonSchema(),
    sessions,
    async execute(args, signal) {
      const parsed = parseToolArgs(args);
      if (!parsed.ok) return parsed.output;
      const { code, session_id, max_chars, row_offset } = parsed.input;
      const result = await sessions.run(code, {
        ...(session_id ? { sessionId: session_id } : {}),
        ...(signal ? { signal } : {}),
      });
      return toToolOutput(result, { maxChars: max_chars ?? maxChars, rowOffset: row_offset ?? 0 });
    },
  };
}

/**
 * Validate a model's arguments (an object, or the JSON string OpenAI sends). Bad arguments become
 * a VALIDATION_ERROR output the model can act on, not an exception in the caller's loop.
 */
export function parseToolArgs(
  args: unknown,
): { ok: true; input: RunAnalysisInput } | { ok: false; output: ToolOutput } {
  let value = args;
  if (typeof args === 'string') {
    try {
      value = JSON.parse(args);
    } catch {
      return invalid('The tool arguments are not valid JSON.');
    }
  }
  // OpenAI strict mode sends null for an optional argument that was not given.
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    value = Object.fromEntries(
      Object.entries(value as Record<string, unknown>).filter(([k, v]) => !(v === null && k !== 'code')),
    );
  }
  const parsed = RunAnalysisInputSchema.safeParse(value);
  if (parsed.success) return { ok: true, input: parsed.data };
  return invalid(parsed.error.issues.map((i) => i.message).join('; '));
}

function invalid(message: string): { ok: false; output: ToolOutput } {
  return {
    ok: false,
    output: {
      ok: false,
      error: {
        type: 'VALIDATION_ERROR',
        message,
        hint: 'Call the tool with {"code": "<JavaScript>"} and optionally "session_id" to keep variables between calls.',
      },
    },
  };
}
