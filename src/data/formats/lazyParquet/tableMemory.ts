/**
 * Memory this process took to decode table columns while a run waited for them (lazy Parquet
 * columns, decoded on first touch inside the guest call: lazyParquetTable.ts). The holder's memory
 * guards, which stop a run whose process grows past its memory limit, count this as the table's,
 * not the run's: the same columns were decoded before any run when every column was decoded at load.
 * `decoding` is true while a decode is under way (the process grows then; a guard holds off), and
 * `listener` hears each change (the holder relays it to the host's guard).
 */
export const tableMemory: {
  grownBytes: number;
  decoding: boolean;
  listener: ((state: { decoding: boolean; grownBytes: number }) => void) | undefined;
} = { grownBytes: 0, decoding: false, listener: undefined };

/**
 * Runs `decode`, counting what the process's resident memory grew meanwhile as table memory.
 * @example const column = asTableMemory(() => decodeColumn(...));
 */
export function asTableMemory<T>(decode: () => T): T {
  const before = process.memoryUsage.rss();
  tableMemory.decoding = true;
  tableMemory.listener?.({ decoding: true, grownBytes: tableMemory.grownBytes });
  try {
    return decode();
  } finally {
    tableMemory.grownBytes += Math.max(0, process.memoryUsage.rss() - before);
    tableMemory.decoding = false;
    tableMemory.listener?.({ decoding: false, grownBytes: tableMemory.grownBytes });
  }
}

/**
 * A decoded column the process no longer keeps (handed to an isolate: lazyParquetTable.ts
 * takeColumn) stops counting as table memory, so decoding it again for a later session is not
 * counted twice: without this, every re-decode would widen the guards' allowance for good.
 * @example releaseTableMemory(column.values.byteLength + column.valid.byteLength);
 */
export function releaseTableMemory(bytes: number): void {
  tableMemory.grownBytes = Math.max(0, tableMemory.grownBytes - bytes);
  tableMemory.listener?.({ decoding: tableMemory.decoding, grownBytes: tableMemory.grownBytes });
}
