import type { Backend } from '../runtime/holder/backend.js';
import { InlineBackend } from '../runtime/holder/inlineBackend.js';
import type { ValidatedOptions } from './options.js';
import {
  defaultHolderPool,
  existingDefaultHolderPool,
  resetDefaultHolderPool,
} from '../runtime/holder/defaultHolder.js';

let inlineBackend: InlineBackend | undefined;

/** The backend a sandbox uses: its pool's, or the shared default holder process, or inline. */
export function backendFor(opts: ValidatedOptions): Backend {
  if (opts.pool) return opts.pool.backend;
  if (opts.isolation === 'inline') return (inlineBackend ??= new InlineBackend());
  return defaultHolderPool();
}

/** The shared default backends, for liveIsolates() checks and shutdown. */
export function defaultBackends(): Backend[] {
  return [existingDefaultHolderPool(), inlineBackend].filter((b): b is NonNullable<typeof b> => !!b);
}

/** Stop the default holder process (it is unref'd, so a process may also just exit). */
export async function shutdownDefaultBackends(): Promise<void> {
  const backends = defaultBackends();
  resetDefaultHolderPool();
  inlineBackend = undefined;
  await Promise.all(backends.map((b) => b.shutdown()));
}
