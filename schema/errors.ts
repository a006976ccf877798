import { z } from 'zod';

/**
 * The error taxonomy: stable codes, one row each in docs/errors.md.
 * VALIDATION_ERROR is thrown to the caller; every other type comes back in a result.
 */
export const ERROR_TYPES = [
  'VALIDATION_ERROR',
  'POLICY_VIOLATION',
  'SYNTAX_ERROR',
  'RUNTIME_ERROR',
  'TIMEOUT',
  'MEMORY_LIMIT',
  'OUTPUT_LIMIT',
  'QUEUE_FULL',
  'ABORTED',
  'INTERNAL_ERROR',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export const ViolationSchema = z.object({
  rule: z.string(),
  message: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  snippet: z.string(),
  hint: z.string(),
});
export type Violation = z.infer<typeof ViolationSchema>;

export const RunErrorSchema = z.object({
  type: z.enum(ERROR_TYPES),
  message: z.string(),
  /** Name of the guest's error class for RUNTIME_ERROR (TypeError, RangeError, ...). */
  name: z.string().optional(),
  /** 1-based line in the user's code. */
  line: z.number().int().optional(),
  /** 1-based column in the user's code. */
  column: z.number().int().optional(),
  /** The offending line with a caret under the column. */
  snippet: z.string().optional(),
  /** What to do instead, written for an LLM that must fix its code. */
  hint: z.string().optional(),
  /** Stack frames inside the user's code only (never wrapper or host paths). */
  stack: z.string().optional(),
  /** Every policy violation, when type is POLICY_VIOLATION. */
  violations: z.array(ViolationSchema).optional(),
});
export type RunError = z.infer<typeof RunErrorSchema>;
