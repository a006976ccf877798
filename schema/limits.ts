import { z } from 'zod';

/** Names of the limit presets, from the Python designs this replaces. */
export const PRESET_NAMES = ['permissive', 'standard', 'strict'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

const positiveInt = (name: string, max: number) =>
  z
    .number({ error: (i) => `Expected the \`${name}\` option to be a positive integer, got \`${fmt(i.input)}\`` })
    .int({ error: (i) => `Expected the \`${name}\` option to be a positive integer, got \`${fmt(i.input)}\`` })
    .min(1, { error: (i) => `Expected the \`${name}\` option to be a positive integer, got \`${fmt(i.input)}\`` })
    .max(max, { error: (i) => `The \`${name}\` option must be at most ${max}, got \`${fmt(i.input)}\`` });

function fmt(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v);
  return Object.prototype.toString.call(v);
}

/** Every limit of a run; one object, echoed in every result. */
export const LimitsSchema = z
  .object({
    /** Heap limit of the isolate, in MiB; the host also watches the holder process's RSS. */
    memoryLimitMb: positiveInt('memoryLimitMb', 8192).min(16, {
      error: (i) => `Expected the \`memoryLimitMb\` option to be at least 16, got \`${fmt(i.input)}\``,
    }),
    /** Wall-clock deadline of one run in ms, enforced by the host; covers awaited promises. */
    timeoutMs: positiveInt('timeoutMs', 600_000),
    /** Largest accepted program, in UTF-8 bytes. */
    maxCodeBytes: positiveInt('maxCodeBytes', 10 * 1024 * 1024),
    /** Cap on stdout + stderr together, in UTF-8 bytes; beyond it output is cut with a marker. */
    maxOutputBytes: positiveInt('maxOutputBytes', 64 * 1024 * 1024),
    /** Cap on the serialized value/table/charts of a run, in UTF-8 bytes. */
    maxResultBytes: positiveInt('maxResultBytes', 64 * 1024 * 1024),
    /** Most table rows returned in a result (and printed before eliding). */
    maxRows: positiveInt('maxRows', 1_000_000),
    /** Cap on the files one run saves (to_csv, to_parquet, to_arrow, to_json, save_chart) together, in bytes. */
    maxFileBytes: positiveInt('maxFileBytes', 2 * 1024 * 1024 * 1024),
  })
  .strict();
export type Limits = z.infer<typeof LimitsSchema>;

/** The limit keys, in the order of {@link LimitsSchema}: the one list options, stores and flags derive from. */
export const LIMIT_KEYS = Object.keys(LimitsSchema.shape) as (keyof Limits)[];

/** The presets. `standard` is the default. Explicit options override a preset. */
export const PRESETS: Readonly<Record<PresetName, Readonly<Limits>>> = Object.freeze({
  permissive: Object.freeze({
    memoryLimitMb: 1024,
    timeoutMs: 60_000,
    maxCodeBytes: 1024 * 1024,
    maxOutputBytes: 1024 * 1024,
    maxResultBytes: 4 * 1024 * 1024,
    maxRows: 10_000,
    maxFileBytes: 256 * 1024 * 1024,
  }),
  standard: Object.freeze({
    memoryLimitMb: 512,
    timeoutMs: 30_000,
    maxCodeBytes: 256 * 1024,
    maxOutputBytes: 256 * 1024,
    maxResultBytes: 1024 * 1024,
    maxRows: 1_000,
    maxFileBytes: 32 * 1024 * 1024,
  }),
  strict: Object.freeze({
    memoryLimitMb: 256,
    timeoutMs: 10_000,
    maxCodeBytes: 64 * 1024,
    maxOutputBytes: 64 * 1024,
    maxResultBytes: 256 * 1024,
    maxRows: 200,
    maxFileBytes: 4 * 1024 * 1024,
  }),
});

export const DEFAULT_PRESET: PresetName = 'standard';

export const PresetSchema = z.enum(PRESET_NAMES, {
  error: (i) =>
    `Expected the \`preset\` option to be one of ${PRESET_NAMES.map((p) => `'${p}'`).join(', ')}, got \`${fmt(i.input)}\``,
});

/** Resolve a preset plus explicit overrides into validated limits. Throws a zod error on bad input. */
export function resolveLimits(preset: PresetName | undefined, overrides: Partial<Limits> = {}): Limits {
  const base = PRESETS[PresetSchema.parse(preset ?? DEFAULT_PRESET)];
  const merged: Record<string, unknown> = { ...base };
  // only limit keys: callers may pass their whole options object
  for (const k of Object.keys(base) as Array<keyof Limits>) if (overrides[k] !== undefined) merged[k] = overrides[k];
  return LimitsSchema.parse(merged);
}
