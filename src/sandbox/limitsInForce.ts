import { resolveLimits, type Limits } from '../../schema/limits.js';
import { SbirtoolsValidationError } from '../core/errors.js';
import { DEFAULT_DECODE_CAPS } from '../data/formats/decodeCaps.js';
import { tableCapsFrom, tableMemoryLimitMb } from '../data/formats/tableLimits.js';
import type { SandboxOptions } from './options.js';

const MIB = 1024 * 1024;

/**
 * The limits of a sandbox made with these options: the preset with its overrides, and with user
 * tables and no explicit `memoryLimitMb`, an isolate of a quarter of host memory (tableLimits.ts),
 * not the preset's. A range error is the caller's, so it is a VALIDATION_ERROR.
 * @throws {SbirtoolsValidationError} for a limit out of range; DataError for a bad SBIRTOOLS_TABLE_MEMORY_MB.
 * @example sandboxLimits({ preset: 'standard' }).memoryLimitMb // 512
 */
export function sandboxLimits(opts: SandboxOptions): Limits {
  try {
    // user tables may be millions of rows: without an explicit memoryLimitMb the isolate may hold
    // a quarter of host memory (tableLimits.ts), not the preset's 512 MiB
    if (opts.memoryLimitMb === undefined && opts.tables && Object.keys(opts.tables).length > 0) {
      const presetMb = resolveLimits(opts.preset, opts).memoryLimitMb;
      return resolveLimits(opts.preset, { ...opts, memoryLimitMb: tableMemoryLimitMb(presetMb) });
    }
    return resolveLimits(opts.preset, opts);
  } catch (err) {
    const issues = (err as { issues?: Array<{ message: string }> }).issues;
    if (issues) throw new SbirtoolsValidationError(issues.map((i) => i.message).join('; '));
    throw err;
  }
}

/** What {@link limitsInForce} reports: what applies to a run, with and without user tables. */
export interface LimitsInForce {
  /** A run's limits in a sandbox of these options (its `memoryLimitMb` is that of a sandbox without user tables, unless the options hold tables). */
  run: Limits;
  /**
   * The isolate heap of a sandbox with user tables (a table given at creation, or added later:
   * MCP `add_table`), MiB: `memoryLimitMb` when given, else max(preset, host memory / 4), at most
   * 8192, or SBIRTOOLS_TABLE_MEMORY_MB.
   */
  tableMemoryLimitMb: number;
  /** The largest table file (Parquet, Arrow, JSON, NDJSON), MiB: `tableFileMaxMb`, SBIRTOOLS_TABLE_FILE_MAX_MB or host memory / 8. */
  tableFileMaxMb: number;
  /** All pages of a table file, inflated, MiB: `tableInflateMaxMb`, SBIRTOOLS_TABLE_INFLATE_MAX_MB or host memory / 2. */
  tableInflateMaxMb: number;
  /** The heap of one table decode worker, MiB (SBIRTOOLS_DECODE_HEAP_MB or host memory / 4). */
  decodeHeapMb: number;
}

/**
 * The limits that apply to sandboxes made with `opts` on this host, the host-scaled ones included:
 * what a service reports at start (createServer), so an operator sizing replicas sees that a session
 * with a table of its caller's may hold a quarter of host memory, not the preset's 512 MiB.
 * @throws {SbirtoolsValidationError} for a limit out of range; DataError for a bad environment setting.
 * @example limitsInForce({ preset: 'standard' }).tableMemoryLimitMb // 6026 on a 23.5 GiB host
 */
export function limitsInForce(opts: SandboxOptions): LimitsInForce {
  const run = sandboxLimits(opts);
  const hasTables = opts.tables !== undefined && Object.keys(opts.tables).length > 0;
  // as sandboxLimits gives it to a sandbox with tables (run's limit when these options hold some)
  const tableMb =
    hasTables || opts.memoryLimitMb !== undefined
      ? run.memoryLimitMb
      : tableMemoryLimitMb(resolveLimits(opts.preset, opts).memoryLimitMb);
  const caps = { ...DEFAULT_DECODE_CAPS, ...tableCapsFrom(opts) };
  return {
    run,
    tableMemoryLimitMb: tableMb,
    tableFileMaxMb: Math.floor(caps.maxInputBytes / MIB),
    tableInflateMaxMb: Math.floor(caps.maxDecodedBytes / MIB),
    decodeHeapMb: caps.heapMb,
  };
}
