import { bodyDone } from '../bodyDone.js';
import type { Middleware, RequestContext } from '../context.js';
import { fail } from '../respond.js';
import { createMemoryStore } from '../store/memoryStore.js';
import type { SharedStore } from '../store/sharedStore.js';
import { AdmissionError, type FairScheduler, type Grant } from './fairScheduler.js';
import type { RefusalPacer } from './refusalPacer.js';
import { budgetId, notStarted, refuseEarly } from './refuseEarly.js';
import { sharedOrLocal } from './sharedOrLocal.js';

/** The per-identity budget (one per API key or OAuth subject, across REST and MCP). */
export interface BudgetLimits {
  /** Runs of one identity executing at once, across replicas (Redis) or in this process. */
  maxConcurrentPerKey: number;
  /** Runs plus session creations of one identity in any 60 s, across replicas. */
  runsPerMinutePerKey: number;
  /** Longest the budget waits for the shared store before this replica decides alone. */
  storeWaitMs: number;
}

/** How long a concurrency slot lives without renewal (a replica that dies frees its slots after this). */
const SLOT_TTL_MS = 15_000;
const MINUTE = 60_000;

/**
 * After authentication: every request that runs code (REST `/v1/run`, MCP `tools/call`) or opens a
 * session spends from its identity's per-minute budget; runs also take one of the identity's
 * concurrency slots, then wait their turn for one of this replica's slots in the FairScheduler.
 * Over a limit: `429 RATE_LIMITED` with `Retry-After` (this identity must slow down); no replica
 * slot within the wait: `503 SERVER_BUSY` with `Retry-After`. Both before any code starts. The
 * checks are atomic (a store script, or one synchronous step in memory): a burst of 50 against a
 * limit of 4 admits exactly 4. Every 429 is remembered with its Retry-After (RefusalPacer): the
 * caller's requests that come back sooner are refused again without a look, each answer held
 * until then (refuseEarly), so a flood that ignores Retry-After costs no store round trip.
 */
export function budget(
  limits: BudgetLimits,
  store: SharedStore,
  scheduler: FairScheduler,
  pacer: RefusalPacer,
  onLimited: (reason: string) => void,
): Middleware {
  // this replica's own count, used when the shared store is down or slow (limits then hold per replica)
  const local = store.kind === 'memory' ? store : createMemoryStore();
  const decide = <T>(shared: (s: SharedStore) => Promise<T>, late?: (v: T) => void) =>
    store === local
      ? shared(local).then((value) => ({ value, local: false }))
      : sharedOrLocal(
          () => shared(store),
          () => shared(local),
          limits.storeWaitMs,
          late,
        );
  /** `cause` says why, without what it means for this request (`notStarted` adds that). */
  const refuse = (ctx: RequestContext, reason: string, cause: string, retryMs: number, hint: string) => {
    const message = `${cause}; ${notStarted(ctx)}.`;
    onLimited(reason);
    // the count cannot fall before Retry-After (a sliding minute drops its oldest run only then),
    // so until it the answer is this one: the pacer gives it without asking the store again
    pacer.remember(budgetId(ctx), Math.max(1000, retryMs), cause, reason);
    return fail(
      429,
      'RATE_LIMITED',
      message,
      { 'retry-after': String(Math.max(1, Math.ceil(retryMs / 1000))), 'sbirtools-code-ran': 'false' },
      hint,
    );
  };
  const perMinuteRefusal = (ctx: RequestContext, retryMs: number) => {
    const retry = Math.max(1, Math.ceil(retryMs / 1000));
    return refuse(
      ctx,
      'per-minute',
      `This caller used its ${limits.runsPerMinutePerKey} runs (and session creations) for the last minute`,
      retryMs,
      `Retry after ${retry} s.`,
    );
  };
  return async (ctx, next) => {
    const runs = ctx.route.isRun?.(ctx) === true;
    if (!runs && ctx.route.chargesBudget?.(ctx) !== true) return next();
    const id = budgetId(ctx);
    // a caller that ignored its Retry-After (on /mcp: known only now that the body is read)
    const early = await refuseEarly(ctx, pacer, onLimited);
    if (early) return early;
    const spent = await decide((s) => s.spend(`runs:${id}`, limits.runsPerMinutePerKey, MINUTE));
    if (spent.local) ctx.log.budget = 'local';
    if (!spent.value.ok) return perMinuteRefusal(ctx, spent.value.retryMs);
    if (!runs) return next();
    const slotName = `conc:${id}`;
    const slot = await decide(
      (s) => s.acquireSlot(slotName, limits.maxConcurrentPerKey, SLOT_TTL_MS),
      (token) => token && void store.releaseSlot(slotName, token).catch(() => undefined),
    );
    const holder = slot.local ? local : store;
    const token = slot.value;
    if (!token)
      return refuse(
        ctx,
        'concurrency',
        `This caller already has ${limits.maxConcurrentPerKey} runs in flight (the limit)`,
        1000,
        'Wait for a run to answer before sending more.',
      );
    const renew = setInterval(
      () => void holder.renewSlot(slotName, token, SLOT_TTL_MS).catch(() => undefined),
      SLOT_TTL_MS / 3,
    );
    renew.unref();
    const freeSlot = () => {
      clearInterval(renew);
      void holder.releaseSlot(slotName, token).catch(() => undefined);
    };
    let grant: Grant;
    try {
      grant = await scheduler.acquire(id, ctx.request.signal);
    } catch (err) {
      freeSlot();
      if (!(err instanceof AdmissionError)) throw err;
      if (err.reason === 'queue-full')
        return refuse(
          ctx,
          'queue',
          `This caller has too many runs waiting on this replica: ${err.message}`,
          1000,
          'Send runs one after another, or fewer at once.',
        );
      onLimited(err.reason);
      return fail(
        503,
        'SERVER_BUSY',
        `This replica is busy: ${err.message}; this code never started.`,
        { 'retry-after': '1', 'sbirtools-code-ran': 'false' },
        'Retry: the run never started, so a retry is safe.',
      );
    }
    // over its share of run time here: its code runs in the low-priority holder, so its slot
    // takes the CPU only when the other callers' runs leave some (docs/deploy.md, "Fairness")
    if (grant.low) {
      ctx.priority = 'low';
      ctx.log.priority = 'low';
    }
    const done = () => {
      grant.release(ctx.cpuMs);
      freeSlot();
    };
    let response: Response;
    try {
      response = await next();
    } catch (err) {
      done();
      throw err;
    }
    // a streamed answer (SSE on /v1/run, MCP progress) runs until its body ends: both slots are held until then
    return bodyDone(response, done);
  };
}
