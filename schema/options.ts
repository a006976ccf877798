import { z } from 'zod';
import { LIMIT_KEYS, PresetSchema, type Limits } from './limits.js';
import { ENGINE_CHOICES, ENGINE_CHOICES_TEXT } from './engine.js';

const optionalLimit = (name: string) =>
  z
    .unknown()
    .optional()
    .superRefine((v, ctx) => {
      if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < 1)) {
        ctx.addIssue({
          code: 'custom',
          message: `Expected the \`${name}\` option to be a positive integer, got \`${describe(v)}\``,
        });
      }
    }) as unknown as z.ZodOptional<z.ZodNumber>;

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v == null) return String(v);
  return Object.prototype.toString.call(v);
}

/** Options of createSandbox() and run(); the serializable part, validated up front. */
export const SandboxOptionsSchema = z
  .object({
    /** Limit preset. @default 'standard' */
    preset: PresetSchema.optional(),
    /** Each limit of schema/limits.ts, overriding the preset's. */
    ...(Object.fromEntries(LIMIT_KEYS.map((key) => [key, optionalLimit(key)])) as Record<
      keyof Limits,
      z.ZodOptional<z.ZodNumber>
    >),
    /** Largest user table file (Parquet, Arrow, JSON), in MiB. @default max(512, host memory / 8) or $SBIRTOOLS_TABLE_FILE_MAX_MB */
    tableFileMaxMb: optionalLimit('tableFileMaxMb'),
    /** Most bytes all pages of one user table file may inflate to, in MiB. @default max(2048, host memory / 2) or $SBIRTOOLS_TABLE_INFLATE_MAX_MB */
    tableInflateMaxMb: optionalLimit('tableInflateMaxMb'),
    /** A local SBIR CSV to use as award_data (either layout); overrides SBIRTOOLS_CSV_PATH. */
    dataPath: z
      .string({ error: 'Expected the `dataPath` option to be a file path or https:// URL string' })
      .min(1)
      .optional(),
    /** How remote data (an https:// dataPath) is fetched; checked in full by src/data/remote/remoteOptions.ts. */
    remoteData: z
      .record(z.string(), z.unknown(), { error: 'Expected the `remoteData` option to be an object' })
      .optional(),
    /** Cache folder for downloads and binary caches. @default $SBIRTOOLS_CACHE_DIR or ~/.cache/sbirtools */
    cacheDir: z.string({ error: 'Expected the `cacheDir` option to be a folder path string' }).min(1).optional(),
    /** Expose award_data at all. @default true */
    awardData: z.boolean({ error: 'Expected the `awardData` option to be a boolean' }).optional(),
    /** Extra tables by name; not serializable, so checked by validateOptions (src/sandbox/options.ts). */
    tables: z.unknown().optional(),
    /** 'process' (default): isolates live in a child process; 'inline': in this process (needs --no-node-snapshot). */
    isolation: z
      .enum(['process', 'inline'], { error: "Expected the `isolation` option to be 'process' or 'inline'" })
      .optional(),
    /** A pool from createPool(); checked by validateOptions. */
    pool: z.unknown().optional(),
    /** Which engine runs the code: isolated-vm (V8, native addon) or QuickJS (WASM); 'auto' = isolated-vm when it loads, else QuickJS. @default 'auto' */
    engine: z
      .enum(ENGINE_CHOICES, {
        error: (i) => `Expected the \`engine\` option to be ${ENGINE_CHOICES_TEXT}, got \`${describe(i.input)}\``,
      })
      .optional(),
    /** 'low': the isolate lives in a holder at a lower CPU scheduling priority (a pool's `lowPriorityNice`). @default 'normal' */
    priority: z
      .enum(['normal', 'low'], {
        error: (i) => `Expected the \`priority\` option to be 'normal' or 'low', got \`${describe(i.input)}\``,
      })
      .optional(),
    /** Freeze Date.now() and seed Math.random for every run (replayable runs). @default false */
    deterministic: z.boolean({ error: 'Expected the `deterministic` option to be a boolean' }).optional(),
  })
  .passthrough();

/** Every option key of createSandbox() and run(), in documentation order. */
export const SANDBOX_OPTION_KEYS = Object.keys(SandboxOptionsSchema.shape) as readonly string[];
