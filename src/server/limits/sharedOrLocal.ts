import { isStoreUnavailable } from '../store/storeUnavailable.js';

/** What sharedOrLocal() decided with. */
export interface Decided<T> {
  value: T;
  /** True when the shared store failed or was slow and this replica's own count decided. */
  local: boolean;
}

/**
 * Ask the shared store, but wait at most `waitMs`: when it fails (STORE_UNAVAILABLE) or is slower,
 * decide with this replica's own count instead. Budgets then still hold within each replica while
 * Redis is down or slow, and a slow Redis does not slow every run. `late` gets a shared answer that
 * arrived after the local decision (e.g. to give back a slot the store granted too late).
 * @example const { value } = await sharedOrLocal(() => store.spend(k, 120, 60_000), () => local.spend(k, 120, 60_000), 250);
 */
export async function sharedOrLocal<T>(
  shared: () => Promise<T>,
  local: () => Promise<T>,
  waitMs: number,
  late?: (value: T) => void,
): Promise<Decided<T>> {
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const asked = shared();
  const outcome = await Promise.race([
    asked.then(
      (value) => ({ value }),
      (err: unknown) => ({ err }),
    ),
    new Promise<'slow'>((resolve) => {
      timer = setTimeout(() => resolve('slow'), waitMs);
      timer.unref?.();
    }),
  ]);
  clearTimeout(timer);
  if (outcome === 'slow') {
    timedOut = true;
    asked.then(
      (value) => timedOut && late?.(value),
      () => undefined,
    );
    return { value: await local(), local: true };
  }
  if ('err' in outcome) {
    if (!isStoreUnavailable(outcome.err)) throw outcome.err;
    return { value: await local(), local: true };
  }
  return { value: outcome.value, local: false };
}
