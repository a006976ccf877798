import { z } from 'zod';
// Schemas straight from schema/ (not the index): this module builds them at load time.
import { RunErrorSchema } from '../../schema/errors.js';

/** Appended to a string the capsule log cut to fit its byte cap. */
export const CUT_MARKER = '\n…[cut by the capsule log]';

/** A table as kept in the log: the first rows plus its shape (no Markdown rendering). */
export const CapsuleTableSchema = z.object({
  columns: z.array(z.string()),
  dtypes: z.array(z.string()),
  rows: z.array(z.array(z.unknown())),
  /** Rows of the whole table (the log keeps only `rows.length` of them). */
  totalRows: z.number().int(),
  /** True when `rows` is not the whole table (cut by the run or by the log). */
  truncated: z.boolean(),
});
export type CapsuleTable = z.infer<typeof CapsuleTableSchema>;

/** A chart as kept in the log: its spec and the SVG rendered on the host when the run ended. */
export const CapsuleChartSchema = z.object({
  kind: z.enum(['vega-lite', 'plotly']),
  title: z.string().optional(),
  spec: z.record(z.string(), z.unknown()).optional(),
  svg: z.string().optional(),
  /** Why there is no SVG (the spec did not render, or the log's byte cap dropped it). */
  svgError: z.string().optional(),
});
export type CapsuleChart = z.infer<typeof CapsuleChartSchema>;

/**
 * What came out of a run, kept in its capsule record when outputs are on (`outputs: true`,
 * CLI `--capsule-outputs`). Stats and dataset identity are in the record itself.
 */
export const CapsuleOutputsSchema = z.object({
  stdout: z.string(),
  stderr: z.string().optional(),
  valueText: z.string().optional(),
  /** The JSON value, kept while the record fits its cap (it is the first thing dropped). */
  value: z.unknown().optional(),
  table: CapsuleTableSchema.optional(),
  displays: z.array(CapsuleTableSchema).optional(),
  charts: z.array(CapsuleChartSchema).optional(),
  error: RunErrorSchema.optional(),
  /** The run's own truncation (output or value over the run's limits). */
  truncated: z.object({ stdout: z.boolean(), value: z.boolean() }),
  /**
   * Present when the log cut these outputs to fit `maxBytes`: which fields (e.g. `stdout`,
   * `table.rows`, `charts[0].svg`) and how large the outputs were. Cut strings end with CUT_MARKER.
   */
  cut: z
    .object({ maxBytes: z.number().int(), originalBytes: z.number().int(), fields: z.array(z.string()) })
    .optional(),
});
export type CapsuleOutputs = z.infer<typeof CapsuleOutputsSchema>;
