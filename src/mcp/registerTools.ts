import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DESCRIBE_DATASET_TOOL_NAME, RUN_ANALYSIS_TOOL_NAME, RunAnalysisInputSchema } from '../../schema/tool.js';
import type { SessionStore } from '../adapters/sessionStore.js';
import type { DataCardView } from '../adapters/description.js';
import { hostErrorResult, toCallToolResult } from './callToolResult.js';
import type { FileStore } from './fileStore.js';

/** Register `run_analysis` and `describe_dataset` on an McpServer; returns run_analysis (add_table updates its description). */
export function registerTools(
  server: McpServer,
  deps: { sessions: SessionStore; description: string; card: () => Promise<DataCardView>; onError: (err: unknown) => void; files?: FileStore },
): RegisteredTool {
  const runTool = server.registerTool(
    RUN_ANALYSIS_TOOL_NAME,
    {
      title: 'Run analysis code over SBIR/STTR awards',
      description: deps.description,
      inputSchema: RunAnalysisInputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ code, session_id }, extra) => {
      try {
        const result = await deps.sessions.run(code, { ...(session_id ? { sessionId: session_id } : {}), signal: extra.signal });
        return toCallToolResult(result, deps.files);
      } catch (err) {
        deps.onError(err);
        return hostErrorResult(err);
      }
    },
  );

  server.registerTool(
    DESCRIBE_DATASET_TOOL_NAME,
    {
      title: 'Describe the award_data table',
      description: 'The data card of award_data: source, whether it is the synthetic sample, rows, and every column with its type, null rate, distinct count, top values or range. Call it before writing analysis code.',
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => {
      try {
        const card = await deps.card();
        return { content: [{ type: 'text', text: card.markdown }], structuredContent: card.json as unknown as Record<string, unknown> };
      } catch (err) {
        deps.onError(err);
        return hostErrorResult(err);
      }
    },
  );
  return runTool;
}
