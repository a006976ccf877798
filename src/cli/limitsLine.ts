import type { LimitsInForce } from '../sandbox/limitsInForce.js';

/**
 * The limits a server's runs meet, as the one line `serve` prints at start, each with the flag or
 * variable that sets it: the host-scaled ones (a session with tables, table files, the decode heap) included.
 * @example limitsLine(server.limits) // 'limits: a run 30000 ms and 512 MiB of heap (6026 MiB in a session with tables ...'
 */
export function limitsLine(l: LimitsInForce): string {
  return (
    `limits: a run ${l.run.timeoutMs} ms and ${l.run.memoryLimitMb} MiB of heap ` +
    `(${l.tableMemoryLimitMb} MiB in a session with tables: --memory-mb or SBIRTOOLS_TABLE_MEMORY_MB); ` +
    `table files up to ${l.tableFileMaxMb} MiB, ${l.tableInflateMaxMb} MiB inflated ` +
    `(--table-file-max-mb, --table-inflate-max-mb); decode heap ${l.decodeHeapMb} MiB (SBIRTOOLS_DECODE_HEAP_MB)`
  );
}
