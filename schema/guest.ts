import { z } from 'zod';
import { ChartSchema, TableResultSchema } from './result.js';

/** What the prelude's execute() returns (as a JSON string); validated on the host before use. */
export const GuestOutcomeSchema = z.union([
  z.object({
    ok: z.literal(true),
    value: z.unknown().optional(),
    valueText: z.string().optional(),
    table: TableResultSchema.optional(),
    displays: z.array(TableResultSchema).optional(),
    charts: z.array(ChartSchema).optional(),
    truncatedValue: z.boolean().optional(),
    truncatedOutput: z.boolean().optional(),
  }),
  z.object({
    ok: z.literal(false),
    error: z.object({
      name: z.string().optional(),
      message: z.string(),
      line: z.number().int().optional(),
      column: z.number().int().optional(),
      stack: z.string().optional(),
      hint: z.string().optional(),
    }),
    truncatedOutput: z.boolean().optional(),
  }),
]);
