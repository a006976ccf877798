import { z } from 'zod';
import { RunFileSchema, RunResultSchema } from '../../schema/result.js';

/**
 * The `outputSchema` of `run_analysis`: the RunResult as JSON (a saved file carries its resource
 * `uri`, never its bytes), plus `cut`, which says what was left out to keep it within the
 * structured-content cap. Every successful call's `structuredContent` validates against it.
 */
export const RunAnalysisOutputSchema = RunResultSchema.extend({
  files: z.array(RunFileSchema.omit({ bytes: true })).optional(),
  /** What was left out of this structured result (rows, the value, charts, output) to stay within the cap, and how to get it. */
  cut: z.array(z.string()).optional(),
});
