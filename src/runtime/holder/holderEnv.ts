/**
 * The settings of the host's environment that code running in the holder reads, passed on to it.
 * The holder otherwise gets a minimal environment (holderProcess.ts: no host secrets), so a
 * documented switch read there (docs/deploy.md, "Environment") would silently do nothing when set
 * on the host. Only these names pass; none of them carries a secret.
 */
export const HOLDER_ENV_PASSTHROUGH = Object.freeze([
  'SBIRTOOLS_LAZY_PARQUET',
  'SBIRTOOLS_LAZY_ARROW',
  'SBIRTOOLS_DECODE_SPARE',
  'SBIRTOOLS_DECODE_PARALLEL',
  'SBIRTOOLS_CSV_PARALLEL',
  'SBIRTOOLS_CSV_STALL_MS',
  'SBIRTOOLS_SCAN_PARALLEL',
  'SBIRTOOLS_DECODE_HEAP_MB',
  'SBIRTOOLS_TABLE_FILE_MAX_MB',
  'SBIRTOOLS_TABLE_INFLATE_MAX_MB',
  'SBIRTOOLS_WARM_SPARES',
  'SBIRTOOLS_WARM_OPEN',
  'SBIRTOOLS_WARM_IDLE',
] as const);

/**
 * The passed-on settings present in `env`.
 * @example passedEnv({ SBIRTOOLS_LAZY_PARQUET: '0', AWS_SECRET_ACCESS_KEY: 'x' }) // { SBIRTOOLS_LAZY_PARQUET: '0' }
 */
export function passedEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of HOLDER_ENV_PASSTHROUGH) {
    const v = env[name];
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/**
 * glibc's malloc settings for the holder process: every allocation of 128 KiB or more in a mapping
 * of its own, returned to the system when freed. The column workers (lazyParquet/) allocate and
 * free buffers of megabytes (a decompressed page, a half-built column) on their own threads. With
 * glibc's default the mmap threshold rises after the first such free (up to 32 MiB), later buffers
 * of that size then come from the thread's arena, and freed they stay resident for the process's
 * life: measured, a 1M-row table kept ~130 MB of RSS after its column workers ended (issue 25,
 * docs/benchmarks.md). A fixed threshold turns that off. Its price: every typed array of 128 KiB or
 * more the isolate makes is fresh pages (~1.5 ms of CPU per 219,590 doubles); 4 MiB or 32 MiB saved
 * that and cost 60-170 MB of peak RSS on a 5M-row table, so it stays (session 17, docs/benchmarks.md).
 * Other C libraries ignore the name; a value set on the host is passed instead.
 * @example mallocEnv({}) // { MALLOC_MMAP_THRESHOLD_: '131072' }
 */
export function mallocEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return { MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_ ?? '131072' };
}
