import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DESCRIBE_DATASET_TOOL_NAME, RUN_ANALYSIS_TOOL_NAME, RunAnalysisInputSchema } from '../../schema/tool.js';
import type { SessionStore } from '../adapters/sessionStore.js';
import type { DataCardView } from '../adapters/description.js';
import { packageInfo } from '../capsule/packageInfo.js';
import { MAX_RESULT_CHARS } from '../sandbox/textBudget.js';
import { hostErrorResult, toCallToolResult, type ToolResultShape } from './callToolResult.js';
import type { FileStore } from './fileStore.js';
import { RunAnalysisOutputSchema } from './outputSchema.js';
import { progressReporter } from './progressReporter.js';
import { traceContextFrom } from './traceContext.js';

/** What registerTools needs. */
export interface ToolDeps {
  sessions: SessionStore;
  description: string;
  card: () => Promise<DataCardView>;
  onError: (err: unknown) => void;
  files?: FileStore;
  /** The text budget (server or session) a call's `max_chars` overrides, and the structured cap. */
  shape: ToolResultShape;
  /** Progress interval in ms. @default 1000 */
  progressIntervalMs?: number;
}

/**
 * Register `run_analysis` and `describe_dataset` on an McpServer; returns run_analysis (add_table
 * updates its description). run_analysis declares its output schema, answers within the text
 * budget, reports progress when the request carries a `progressToken`, stops when the request is
 * cancelled (the SDK aborts `extra.signal`), and runs inside the caller's W3C trace context.
 */
export function registerTools(server: McpServer, deps: ToolDeps): RegisteredTool {
  const runTool = server.registerTool(
    RUN_ANALYSIS_TOOL_NAME,
    {
      title: 'Run analysis code over SBIR/STTR awards',
      description: deps.description,
      inputSchema: RunAnalysisInputSchema,
      outputSchema: RunAnalysisOutputSchema,
      // read-only over award_data and the caller's tables; a session's variables change, which is not a write to the world
      annotations: {
        title: 'Run analysis code over SBIR/STTR awards',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
      // hosts that cap tool results (Claude Code) may keep up to this much text in context
      _meta: { 'anthropic/maxResultSizeChars': MAX_RESULT_CHARS },
    },
    async ({ code, session_id, max_chars, row_offset }, extra) => {
      const progress = progressReporter(extra._meta?.progressToken, extra.sendNotification, deps.progressIntervalMs);
      try {
        const ctx = await traceContextFrom(extra._meta as Record<string, unknown> | undefined);
        const { context, trace } = await import('@opentelemetry/api');
        const tracer = trace.getTracer('sbirtools', packageInfo().version);
        // the caller's context is passed explicitly (the span's parent even without a context
        // manager) and made active (the run's own spans nest under it when the SDK has one)
        const result = await context.with(ctx, () =>
          tracer.startActiveSpan(
            'sbirtools.tool_call',
            { attributes: { 'mcp.tool.name': RUN_ANALYSIS_TOOL_NAME } },
            ctx,
            async (span) => {
              try {
                return await deps.sessions.run(code, {
                  ...(session_id ? { sessionId: session_id } : {}),
                  signal: extra.signal,
                  ...(progress.active ? { onOutput: (_s: string, text: string) => progress.output(text) } : {}),
                });
              } finally {
                span.end();
              }
            },
          ),
        );
        return toCallToolResult(result, deps.files, {
          ...deps.shape,
          ...(max_chars ? { maxChars: max_chars } : {}),
          rowOffset: row_offset ?? 0,
        });
      } catch (err) {
        deps.onError(err);
        return hostErrorResult(err);
      } finally {
        progress.stop();
      }
    },
  );

  server.registerTool(
    DESCRIBE_DATASET_TOOL_NAME,
    {
      title: 'Describe the award_data table',
      description:
        'The data card of award_data: source, whether it is the synthetic sample, rows, and every column with its type, null rate, distinct count, top values or range. Call it before writing analysis code.',
      inputSchema: z.object({}),
      annotations: {
        title: 'Describe the award_data table',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async () => {
      try {
        const card = await deps.card();
        return {
          content: [{ type: 'text', text: card.markdown }],
          structuredContent: card.json as unknown as Record<string, unknown>,
        };
      } catch (err) {
        deps.onError(err);
        return hostErrorResult(err);
      }
    },
  );
  return runTool;
}
