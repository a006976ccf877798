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
  'SBIRTOOLS_DECODE_HEAP_MB',
  'SBIRTOOLS_TABLE_FILE_MAX_MB',
  'SBIRTOOLS_TABLE_INFLATE_MAX_MB',
  'SBIRTOOLS_WARM_SPARES',
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
