import { setFlagsFromString } from 'node:v8';

/**
 * The semi-space size (MB) an isolate with `memoryLimitMb` gets: a 32nd of the limit, 1 to 32 MB
 * (16 MB at the default 512 MB, where isolated-vm's own choice is 8 MB).
 *
 * Why larger: analysis code allocates in bulk what dies at the end of the run (the 219,590 fresh
 * row objects of an `objects()` call, a filtered copy of a column, a Map of counts). With a small
 * young generation a scavenge lands in the middle of that work, copies every row still in use and,
 * at the second one, moves them to the old generation, whose growth then costs a full mark-compact
 * in nearly every run. A semi-space that holds a run's rows lets them die young. The young
 * generation is counted on top of the memory limit by isolated-vm (its `misc_memory_size`), so
 * the old generation's room for the guest's data is unchanged.
 * @example semiSpaceMbFor(512) // 16
 */
export function semiSpaceMbFor(memoryLimitMb: number): number {
  return Math.min(32, Math.max(1, Math.floor(memoryLimitMb / 32)));
}

/**
 * Runs `create` (one synchronous `new ivm.Isolate(...)`) with V8's `--max-semi-space-size` set
 * for it, then clears the flag so later isolates of this process (worker threads, other
 * sessions) start from their own choice. V8 reads the flag when an isolate configures its heap,
 * and it takes precedence over the constraints isolated-vm passes (which is why isolated-vm
 * clears it at load). A Node that refuses the flag leaves isolated-vm's size.
 */
export function withYoungGeneration<T>(memoryLimitMb: number, create: () => T): T {
  const set = (mb: number) => {
    try {
      setFlagsFromString(`--max-semi-space-size=${mb}`);
      return true;
    } catch {
      return false;
    }
  };
  if (!set(semiSpaceMbFor(memoryLimitMb))) return create();
  try {
    return create();
  } finally {
    set(0);
  }
}
