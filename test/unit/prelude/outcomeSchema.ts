// The GuestOutcome shape (docs/architecture.md) as a zod schema, built from schema/result.ts, so every
// test run checks that execute() returned exactly what the host will accept.
import { z } from 'zod';
import { ChartSchema, TableResultSchema } from '../../../schema/result.js';

export const GuestErrorSchema = z.strictObject({
  name: z.string(),
  message: z.string(),
  line: z.number().int().min(1).optional(),
  column: z.number().int().min(1).optional(),
  stack: z.string().optional(),
  hint: z.string().optional(),
});

export const GuestOutcomeSchema = z.union([
  z.strictObject({
    ok: z.literal(true),
    value: z.unknown().optional(),
    valueText: z.string().optional(),
    table: TableResultSchema.strict().optional(),
    displays: z.array(TableResultSchema.strict()).optional(),
    charts: z.array(ChartSchema.strict()).optional(),
    truncatedValue: z.boolean(),
    truncatedOutput: z.boolean(),
  }),
  z.strictObject({ ok: z.literal(false), error: GuestErrorSchema, truncatedOutput: z.boolean() }),
]);
