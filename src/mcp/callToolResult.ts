import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RunResult } from '../../schema/result.js';
import { resultText } from '../adapters/resultText.js';

/**
 * A RunResult as an MCP tool result: readable text for the model, the whole RunResult as
 * `structuredContent` for programs, `isError` when the run failed (so the model fixes its code).
 */
export function toCallToolResult(result: RunResult): CallToolResult {
  return {
    content: [{ type: 'text', text: resultText(result) }],
    structuredContent: result as unknown as Record<string, unknown>,
    ...(result.ok ? {} : { isError: true }),
  };
}

/** A host failure (not the guest's) as a tool error: what happened, without host paths or stacks. */
export function hostErrorResult(err: unknown): CallToolResult {
  const e = err as { code?: string; message?: string };
  const type = e.code === 'VALIDATION_ERROR' ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR';
  const message = type === 'VALIDATION_ERROR' ? String(e.message) : 'The server failed to run the code; retry, and if it keeps failing tell the user to check the server log.';
  return { content: [{ type: 'text', text: `error: ${type}: ${message}` }], isError: true };
}
