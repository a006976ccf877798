import { z } from 'zod';
// Schemas straight from schema/ (not the index): this module builds them at load time, and the index re-exports it.
import { DatasetInfoSchema } from '../../schema/result.js';
import { LimitsSchema, PRESET_NAMES } from '../../schema/limits.js';
import { CapsuleOutputsSchema } from './capsuleOutputs.js';

/** `{ now, seed }` given to a deterministic run: Date.now() is frozen at `now`, Math.random seeded with `seed`. */
export const DeterminismSchema = z.object({
  now: z.number(),
  seed: z.number().int(),
});
export type Determinism = z.infer<typeof DeterminismSchema>;

/**
 * One line of a capsule log (JSONL): what ran, over which data and prelude, with which limits,
 * and a summary of what came out (plus the outputs themselves when asked). Enough for `sbirtools replay` to re-run it and compare.
 */
export const CapsuleRecordSchema = z.object({
  /** Format version of this record. */
  v: z.literal(1),
  /** When the run started, ISO-8601. */
  time: z.string(),
  code: z.string(),
  codeHash: z.string(),
  /** For runs of a session: its id and the run's 1-based position in it (state carries between runs). */
  session: z.object({ id: z.string(), seq: z.number().int().min(1) }).optional(),
  preset: z.enum(PRESET_NAMES).optional(),
  /** On `sbirtools serve`: the id of the API key that ran it (a hash prefix, never the key), so a viewer shows a key only its own runs. */
  key: z.string().optional(),
  dataset: DatasetInfoSchema.nullable(),
  /** Hash of the prelude bundle (or the package version when unbuilt). */
  prelude: z.string(),
  sbirtools: z.string(),
  /**
   * The run's limits. Partial, and unknown keys dropped: a record written before a limit existed
   * (maxFileBytes came later) or by a newer sbirtools still reads, and replays with today's default.
   */
  limits: LimitsSchema.partial().strip(),
  deterministic: DeterminismSchema.nullable(),
  result: z.object({
    ok: z.boolean(),
    errorType: z.string().optional(),
    stdoutHash: z.string(),
    valueHash: z.string(),
  }),
  stats: z.object({ wallMs: z.number(), cpuMs: z.number(), heapUsedMb: z.number() }),
  /** What came out (stdout, value, tables, charts with SVG, error), when outputs are on. Older records have none. */
  outputs: CapsuleOutputsSchema.optional(),
});
export type CapsuleRecord = z.infer<typeof CapsuleRecordSchema>;
