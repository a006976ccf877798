import { envValue } from '../paths.js';

/**
 * How remote data is fetched (docs/dataset.md "Remote data"). Every field has a default; the
 * environment can set the two permissions (SBIRTOOLS_DATA_ALLOW_HTTP, SBIRTOOLS_DATA_ALLOW_HOSTS).
 */
export interface RemoteOptions {
  /** Allow plain `http://` to hosts other than loopback (private networks). @default false */
  allowHttp?: boolean;
  /** Hosts a redirect may lead to besides the folder's own host. @default [] */
  allowRedirectHosts?: string[];
  /** A request fails when no header or body byte arrives for this long. @default 15000 */
  requestTimeoutMs?: number;
  /** A whole transfer (all attempts, backoff included) fails after this long. @default 120000 */
  deadlineMs?: number;
  /** Extra attempts after a network error, a 5xx, a 429 or a body cut short. @default 3 */
  retries?: number;
  /** Largest column file fetched. @default 1 GiB */
  maxColumnBytes?: number;
}

/** The defaults, in one place. */
export const REMOTE_DEFAULTS: Required<RemoteOptions> = {
  allowHttp: false,
  allowRedirectHosts: [],
  requestTimeoutMs: 15_000,
  deadlineMs: 120_000,
  retries: 3,
  maxColumnBytes: 1024 ** 3,
};

/** Largest manifest fetched. */
export const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;
/** First backoff between attempts; doubles each time. */
export const BACKOFF_MS = 250;

/** Environment variables of remote data. */
export const REMOTE_ENV = {
  url: 'SBIRTOOLS_DATA_URL',
  allowHttp: 'SBIRTOOLS_DATA_ALLOW_HTTP',
  allowHosts: 'SBIRTOOLS_DATA_ALLOW_HOSTS',
} as const;

/**
 * Options merged over the defaults, the environment's permissions added.
 * @throws {TypeError} for a value of the wrong kind, echoing it.
 * @example remoteOptions({ retries: 1 }, process.env).deadlineMs // 120000
 */
export function remoteOptions(
  opts: RemoteOptions = {},
  env: Record<string, string | undefined> = {},
): Required<RemoteOptions> {
  const merged = {
    ...REMOTE_DEFAULTS,
    ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)),
  } as Required<RemoteOptions>;
  for (const k of ['requestTimeoutMs', 'deadlineMs', 'maxColumnBytes'] as const) {
    if (!Number.isInteger(merged[k]) || merged[k] <= 0)
      throw new TypeError(
        `Expected the \`remoteData.${k}\` option to be a positive integer, got \`${String(merged[k])}\``,
      );
  }
  if (!Number.isInteger(merged.retries) || merged.retries < 0 || merged.retries > 10)
    throw new TypeError(
      `Expected the \`remoteData.retries\` option to be an integer from 0 to 10, got \`${String(merged.retries)}\``,
    );
  if (!Array.isArray(merged.allowRedirectHosts) || merged.allowRedirectHosts.some((h) => typeof h !== 'string')) {
    throw new TypeError(
      `Expected the \`remoteData.allowRedirectHosts\` option to be an array of host names, got \`${JSON.stringify(merged.allowRedirectHosts)}\``,
    );
  }
  const envHttp = envValue(env, REMOTE_ENV.allowHttp);
  const envHosts = envValue(env, REMOTE_ENV.allowHosts);
  return {
    ...merged,
    allowHttp: merged.allowHttp === true || envHttp === '1' || envHttp === 'true',
    allowRedirectHosts: [
      ...merged.allowRedirectHosts,
      ...(envHosts
        ? envHosts
            .split(',')
            .map((h) => h.trim())
            .filter(Boolean)
        : []),
    ].map((h) => h.toLowerCase()),
  };
}
