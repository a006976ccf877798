import { SbirtoolsError } from '../../core/errors.js';
import type { SharedStore } from '../store/sharedStore.js';

/** Lease length; renewed every third of it while held, so a dead replica's lease frees in ~this long. */
export const LEASE_MS = 4000;

/** Why a lease was not taken in time. */
export class LeaseTimeoutError extends SbirtoolsError {
  constructor(
    readonly lease: string,
    waitedMs: number,
  ) {
    super('LEASE_TIMEOUT', `Waited ${waitedMs} ms for ${lease}, which another request holds.`);
    this.name = 'LeaseTimeoutError';
  }
}

/**
 * Run `fn` while holding the lease `name` in the shared store (one holder across all replicas),
 * waiting up to `waitMs` for it. The lease is renewed while `fn` runs and released after; a
 * replica that dies stops renewing, so its lease expires after LEASE_MS and the next caller goes on.
 * `onWait` runs between attempts (e.g. to look for an answer another replica stored).
 * @throws {LeaseTimeoutError} when the lease stayed taken for `waitMs`.
 */
export async function withLease<T>(
  store: SharedStore,
  name: string,
  opts: { waitMs: number; signal?: AbortSignal; onWait?: () => Promise<T | undefined> },
  fn: () => Promise<T>,
): Promise<T> {
  const started = Date.now();
  let token: string | undefined;
  for (let delay = 20; !(token = await store.acquireLease(name, LEASE_MS)); delay = Math.min(delay * 2, 250)) {
    const early = await opts.onWait?.();
    if (early !== undefined) return early;
    if (Date.now() - started > opts.waitMs || opts.signal?.aborted)
      throw new LeaseTimeoutError(name, Date.now() - started);
    await new Promise((r) => setTimeout(r, delay));
  }
  const held = token;
  const renew = setInterval(() => void store.renewLease(name, held, LEASE_MS).catch(() => undefined), LEASE_MS / 3);
  renew.unref();
  try {
    return await fn();
  } finally {
    clearInterval(renew);
    await store.releaseLease(name, held).catch(() => undefined);
  }
}
