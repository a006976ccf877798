import { totalmem } from 'node:os';
import { DataError } from '../errors.js';

/**
 * Bounds on decoding one user table file (Parquet, Arrow, JSON). Files are decoded in a worker
 * thread under these caps (decodeInWorker.ts); the numbers are checked BEFORE a page is inflated,
 * from the file's own headers, and again on what the decoder actually produced.
 *
 * The three size caps (file, inflate, decode heap) scale with the memory the host can hold: the
 * smaller of `os.totalmem()` and the process's constrained memory (a cgroup limit), see
 * {@link hostDecodeCaps}. Each can be set by an environment variable ({@link DECODE_CAP_ENV}) or,
 * per call, by the `caps` option of `loadTable` / `decodeInWorker`.
 */
export interface DecodeCaps {
  /** Largest accepted file (or upload), in bytes. @default max(512 MiB, host memory / 8) */
  maxInputBytes: number;
  /** Most bytes all pages of the file may inflate to, together. @default max(2 GiB, host memory / 2) */
  maxDecodedBytes: number;
  /** Most bytes one page may inflate to. @default 256 MiB */
  maxPageBytes: number;
  /** Most rows of one table. @default 50,000,000 */
  maxRows: number;
  /** Most columns of one table. @default 10,000 */
  maxColumns: number;
  /** Longest column name, in characters. @default 4096 */
  maxColumnNameChars: number;
  /** Most cells (rows x columns) of a JSON/NDJSON table, whose rows may each name other keys. @default 200,000,000 */
  maxJsonCells: number;
  /** Deepest nesting of arrays and objects in a JSON/NDJSON file (the rows' array is level 1). @default 64 */
  maxJsonDepth: number;
  /** Wall-clock budget of one decode; the worker is terminated past it. @default 120,000 */
  timeoutMs: number;
  /** Old-generation heap of one decode worker, in MiB (two may run at once). @default max(2048, host memory in MiB / 4), at most 16384 */
  heapMb: number;
  /** Where a cap the caller set came from, named in the refusal's hint (e.g. the `tableFileMaxMb` option). */
  setBy?: Partial<Record<keyof typeof DECODE_CAP_ENV, string>>;
}

/** The environment variable that sets each host-scaled cap (sizes in MiB). */
export const DECODE_CAP_ENV = Object.freeze({
  maxInputBytes: 'SBIRTOOLS_TABLE_FILE_MAX_MB',
  maxDecodedBytes: 'SBIRTOOLS_TABLE_INFLATE_MAX_MB',
  heapMb: 'SBIRTOOLS_DECODE_HEAP_MB',
} as const);

/** How the sandbox (createSandbox and the CLI) sets the file and inflate caps, as a hint names them. */
export const TABLE_CAP_OPTIONS = Object.freeze({
  maxInputBytes: 'the `tableFileMaxMb` option of createSandbox (CLI --table-file-max-mb)',
  maxDecodedBytes: 'the `tableInflateMaxMb` option of createSandbox (CLI --table-inflate-max-mb)',
} as const);

const MIB = 1024 * 1024;

/**
 * The memory this process can use: the smaller of the machine's memory and a cgroup/container
 * limit (`process.constrainedMemory()`, 0 or undefined when there is none).
 */
export function hostMemoryBytes(): number {
  const total = totalmem();
  const constrained = (process as { constrainedMemory?: () => number | undefined }).constrainedMemory?.();
  return constrained !== undefined && constrained > 0 && constrained < total ? constrained : total;
}

/**
 * The default caps for a host with `memBytes` of memory, with the environment's overrides
 * ({@link DECODE_CAP_ENV}, whole MiB). The fixed floors (512 MiB file, 2 GiB inflate, 2 GiB heap)
 * are the caps of small hosts; larger hosts get a file cap of 1/8 and an inflate cap of 1/2 of
 * their memory, so a 20M-row table fits where the memory does.
 * @throws {DataError} DATA_UNSUPPORTED when an override is not a positive whole number.
 * @example hostDecodeCaps(16 * 2 ** 30, {}).maxInputBytes // 2 GiB
 */
export function hostDecodeCaps(
  memBytes: number = hostMemoryBytes(),
  env: Record<string, string | undefined> = process.env,
): DecodeCaps {
  const mem = Number.isFinite(memBytes) && memBytes > 0 ? memBytes : 0;
  const caps: DecodeCaps = {
    maxInputBytes: Math.max(512 * MIB, Math.floor(mem / 8 / MIB) * MIB),
    maxDecodedBytes: Math.max(2048 * MIB, Math.floor(mem / 2 / MIB) * MIB),
    maxPageBytes: 256 * MIB,
    maxRows: 50_000_000,
    maxColumns: 10_000,
    maxColumnNameChars: 4096,
    maxJsonCells: 200_000_000,
    maxJsonDepth: 64,
    timeoutMs: 120_000,
    heapMb: Math.min(16_384, Math.max(2048, Math.floor(mem / 4 / MIB))), // a large file is decoded by two workers at once
  };
  for (const key of Object.keys(DECODE_CAP_ENV) as (keyof typeof DECODE_CAP_ENV)[]) {
    const raw = env[DECODE_CAP_ENV[key]];
    if (raw === undefined || raw === '') continue;
    const mb = Number(raw);
    if (!Number.isInteger(mb) || mb < 1) {
      throw new DataError('DATA_UNSUPPORTED', `${DECODE_CAP_ENV[key]}=${JSON.stringify(raw)} is not a size in MiB`, {
        hint: `Set ${DECODE_CAP_ENV[key]} to a positive whole number of MiB (e.g. 4096), or unset it for the host-scaled default.`,
      });
    }
    caps[key] = key === 'heapMb' ? mb : mb * MIB;
  }
  return caps;
}

/**
 * The default caps of this process: scaled to its host's memory and read once from the
 * environment at start (see {@link hostDecodeCaps}).
 */
export const DEFAULT_DECODE_CAPS: Readonly<DecodeCaps> = Object.freeze(hostDecodeCaps());

/**
 * What to tell the reader when a host-scaled cap is exceeded: the setting that raises it. A cap
 * the caller set itself (not this process's default, e.g. the MCP upload cap) is named as the
 * caller's `caps` option only: the environment variable would not change it.
 * @example capHint('maxInputBytes', DEFAULT_DECODE_CAPS, 'Split the file.') // '... environment variable SBIRTOOLS_TABLE_FILE_MAX_MB (now 512 MiB; ...'
 */
export function capHint(key: keyof typeof DECODE_CAP_ENV, caps: DecodeCaps, alternative: string): string {
  const now = `${key === 'heapMb' ? caps.heapMb : Math.floor(caps[key] / MIB)} MiB`;
  const setBy = caps.setBy?.[key];
  if (setBy !== undefined) return `${alternative} Or raise the cap the caller set: ${setBy} (now ${now}).`;
  if (caps[key] !== DEFAULT_DECODE_CAPS[key])
    return `${alternative} Or raise the cap the caller set: the \`caps.${key}\` option (now ${now}).`;
  const sandbox = key in TABLE_CAP_OPTIONS ? `${TABLE_CAP_OPTIONS[key as keyof typeof TABLE_CAP_OPTIONS]}, ` : '';
  return `${alternative} Or raise the cap: environment variable ${DECODE_CAP_ENV[key]} (now ${now}; the default scales with host memory), ${sandbox}or the \`caps.${key}\` option of loadTable.`;
}
