import { z } from 'zod';

/** What a session id may be: 1-128 of letters, digits and `_ - . :` (a UUID fits; CR/LF, spaces and `/` never do). */
export const SESSION_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Name of the analysis tool on every surface (MCP, OpenAI, Anthropic, AI SDK). */
export const RUN_ANALYSIS_TOOL_NAME = 'run_analysis';

/** Name of the MCP tool that returns the data card. */
export const DESCRIBE_DATASET_TOOL_NAME = 'describe_dataset';

/** Bounds of a result-text budget in characters (`max_chars`, `maxResultChars`): what the model reads of one run. */
export const RESULT_CHARS_BOUNDS = { min: 1_000, max: 200_000 } as const;

/**
 * Arguments of the `run_analysis` tool: the single source of truth for the MCP input schema and
 * the JSON Schema of the OpenAI, Anthropic and AI SDK tool definitions (via `z.toJSONSchema`).
 */
export const RunAnalysisInputSchema = z.object({
  code: z
    .string({ error: 'Expected `code` to be a string of JavaScript' })
    .min(1, { error: 'Expected `code` to be non-empty JavaScript; award_data is already loaded' })
    .describe(
      'JavaScript to run over the award_data table. The last expression (or `result`) is returned; print() writes to stdout.',
    ),
  session_id: z
    .string({ error: 'Expected `session_id` to be a string' })
    .min(1)
    .max(128, { error: 'Expected `session_id` to be at most 128 characters' })
    .regex(SESSION_ID, {
      error:
        'Expected `session_id` to use only letters, digits and `_ - . :` (no spaces or control characters), e.g. the id POST /v1/sessions returned',
    })
    .optional()
    .describe(
      'Reuse variables across calls: runs with the same session_id share one sandbox. Omit for a fresh, stateless run.',
    ),
  max_chars: z
    .number({ error: 'Expected `max_chars` to be a number of characters' })
    .int({ error: 'Expected `max_chars` to be an integer' })
    .min(RESULT_CHARS_BOUNDS.min, { error: `Expected \`max_chars\` to be at least ${RESULT_CHARS_BOUNDS.min}` })
    .max(RESULT_CHARS_BOUNDS.max, { error: `Expected \`max_chars\` to be at most ${RESULT_CHARS_BOUNDS.max}` })
    .optional()
    .describe(
      'Most characters of output text to return (default 16000 unless the server sets another). Raise it only when you need more rows or text at once.',
    ),
  row_offset: z
    .number({ error: 'Expected `row_offset` to be a row number' })
    .int({ error: 'Expected `row_offset` to be an integer' })
    .min(0, { error: 'Expected `row_offset` to be 0 or more' })
    .optional()
    .describe(
      'Show the returned table from this row (0-based) when a previous answer said rows were cut. The code runs again, so in a session assign the table to a variable and return that variable.',
    ),
});

/** Input of `run_analysis`. */
export type RunAnalysisInput = z.infer<typeof RunAnalysisInputSchema>;

/** Body of a POST to the serverless handler: one stateless run. */
export const HandlerRequestSchema = z.object({
  code: RunAnalysisInputSchema.shape.code,
});
