import { SbirtoolsError } from '../../core/errors.js';

/**
 * The shared store (Redis) did not answer in time, is unreachable, or refused a write (out of
 * memory, wrong password). Routes that need the store answer `503 STORE_UNAVAILABLE` with
 * `Retry-After`; the rest of the service keeps answering. Recovery needs no restart: the client
 * reconnects by itself and the next call succeeds.
 */
export class StoreUnavailableError extends SbirtoolsError {
  constructor(message: string) {
    super('STORE_UNAVAILABLE', message);
    this.name = 'StoreUnavailableError';
  }
}

/** True for a StoreUnavailableError (also across module copies: checks the name). */
export function isStoreUnavailable(err: unknown): err is StoreUnavailableError {
  return err instanceof SbirtoolsError && err.name === 'StoreUnavailableError';
}
