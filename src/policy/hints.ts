/** Hints shared by several rules and by the syntax-error paths; one wording everywhere. */
export const HINTS = Object.freeze({
  loaded:
    'aq and award_data are already loaded and the prelude helpers (print, value_counts, ...) are global; no imports are needed.',
  noIo: "There are no files, network or Node modules here; the data is award_data (an Arquero table), e.g. `award_data.filter(d => d.Phase === 'Phase II')`.",
});

const NODE_MODULES = new Set([
  'fs',
  'fs/promises',
  'path',
  'os',
  'http',
  'https',
  'http2',
  'net',
  'tls',
  'dgram',
  'dns',
  'child_process',
  'worker_threads',
  'vm',
  'cluster',
  'readline',
  'stream',
  'crypto',
  'axios',
  'node-fetch',
  'got',
  'undici',
  'request',
]);

/**
 * The hint for importing or requiring a module: Node built-ins and HTTP clients get "no files
 * or network", anything else (arquero, pandas, danfojs, lodash, ...) gets "already loaded".
 * @example
 * moduleHint('node:fs'); // HINTS.noIo
 */
export function moduleHint(specifier: string | undefined): string {
  if (specifier === undefined) return HINTS.loaded;
  return specifier.startsWith('node:') || NODE_MODULES.has(specifier) ? HINTS.noIo : HINTS.loaded;
}
