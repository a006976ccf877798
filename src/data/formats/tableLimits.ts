import { DataError } from '../errors.js';
import { hostMemoryBytes, TABLE_CAP_OPTIONS, type DecodeCaps } from './decodeCaps.js';

const MIB = 1024 * 1024;

/** The environment variable that sets the isolate heap of a sandbox with user tables, in MiB. */
export const TABLE_MEMORY_ENV = 'SBIRTOOLS_TABLE_MEMORY_MB';

/** The most any isolate may hold (schema/limits.ts's bound on `memoryLimitMb`). */
const MAX_ISOLATE_MB = 8192;

/**
 * The isolate heap limit of a sandbox that has user tables and no explicit `memoryLimitMb`: a
 * quarter of the memory the host can hold (os.totalmem(), or a cgroup limit when smaller), never
 * below the preset's own limit and at most 8192 MiB; `SBIRTOOLS_TABLE_MEMORY_MB` sets it instead.
 * A 20M-row, 7-column table's columns are ~1.6 GB, so the questions that read its widest columns
 * fit on a host with ~8 GiB or more without a flag; the preset's limit (512 MiB standard) stays the
 * limit of sandboxes without user tables, where it bounds a runaway program.
 * @throws {DataError} DATA_UNSUPPORTED when the environment variable is not a size in MiB (16-8192).
 * @example tableMemoryLimitMb(512, 24 * 2 ** 30, {}) // 6144
 */
export function tableMemoryLimitMb(
  presetMb: number,
  memBytes: number = hostMemoryBytes(),
  env: Record<string, string | undefined> = process.env,
): number {
  const raw = env[TABLE_MEMORY_ENV];
  if (raw !== undefined && raw !== '') {
    const mb = Number(raw);
    if (!Number.isInteger(mb) || mb < 16 || mb > MAX_ISOLATE_MB) {
      throw new DataError('DATA_UNSUPPORTED', `${TABLE_MEMORY_ENV}=${JSON.stringify(raw)} is not a size in MiB`, {
        hint: `Set ${TABLE_MEMORY_ENV} to a whole number of MiB from 16 to ${MAX_ISOLATE_MB} (e.g. 4096), or unset it for a quarter of host memory.`,
      });
    }
    return mb;
  }
  const quarter = Number.isFinite(memBytes) && memBytes > 0 ? Math.floor(memBytes / 4 / MIB) : 0;
  return Math.min(MAX_ISOLATE_MB, Math.max(presetMb, quarter));
}

/** The sandbox's table-cap options, in MiB (createSandbox `tableFileMaxMb`, `tableInflateMaxMb`). */
export interface TableCapOptions {
  tableFileMaxMb?: number;
  tableInflateMaxMb?: number;
}

/**
 * The decode caps a sandbox's options set, each naming its option in a refusal's hint; an option
 * not given leaves the host-scaled default (decodeCaps.ts).
 * @example tableCapsFrom({ tableFileMaxMb: 4096 }).maxInputBytes // 4 GiB
 */
export function tableCapsFrom(o: TableCapOptions): Partial<DecodeCaps> {
  const caps: Partial<DecodeCaps> = {};
  const setBy: NonNullable<DecodeCaps['setBy']> = {};
  if (o.tableFileMaxMb !== undefined) {
    caps.maxInputBytes = o.tableFileMaxMb * MIB;
    setBy.maxInputBytes = TABLE_CAP_OPTIONS.maxInputBytes;
  }
  if (o.tableInflateMaxMb !== undefined) {
    caps.maxDecodedBytes = o.tableInflateMaxMb * MIB;
    setBy.maxDecodedBytes = TABLE_CAP_OPTIONS.maxDecodedBytes;
  }
  if (setBy.maxInputBytes !== undefined || setBy.maxDecodedBytes !== undefined) caps.setBy = setBy;
  return caps;
}
