import type { Middleware } from '../context.js';
import { bodyDone } from '../bodyDone.js';
import { fail } from '../respond.js';
import type { SharedStore } from '../store/sharedStore.js';

/** Per-key limits on requests that run code. */
export interface RateLimits {
  /** Runs of one key executing at once on this replica. */
  maxConcurrentPerKey: number;
  /** Runs of one key per minute (across replicas when the store is Redis). */
  runsPerMinutePerKey: number;
}

/**
 * Keyed by the API key, after it is known: 429 with `Retry-After` when the key has too many runs
 * in flight here, or has used its runs for this minute (a fixed window in the shared store).
 */
export function rateLimit(limits: RateLimits, store: SharedStore, onLimited: (reason: string) => void): Middleware {
  const inFlight = new Map<string, number>();
  return async (ctx, next) => {
    if (!ctx.route.isRun?.(ctx)) return next();
    const key = ctx.keyId;
    const running = inFlight.get(key) ?? 0;
    if (running >= limits.maxConcurrentPerKey) {
      onLimited('concurrency');
      return fail(429, 'RATE_LIMITED', `This API key already has ${running} runs in flight (limit ${limits.maxConcurrentPerKey}); this code never started.`, { 'retry-after': '1', 'sbirtools-code-ran': 'false' }, 'Wait for a run to answer before sending more.');
    }
    const window = await store.hit(`rate:${key}:${Math.floor(Date.now() / 60_000)}`, 60_000);
    if (window.count > limits.runsPerMinutePerKey) {
      onLimited('per-minute');
      const retry = Math.max(1, Math.ceil(window.resetMs / 1000));
      return fail(429, 'RATE_LIMITED', `This API key used its ${limits.runsPerMinutePerKey} runs for this minute; this code never started.`, { 'retry-after': String(retry), 'sbirtools-code-ran': 'false' }, `Retry after ${retry} s.`);
    }
    inFlight.set(key, running + 1);
    const release = () => {
      const left = (inFlight.get(key) ?? 1) - 1;
      if (left <= 0) inFlight.delete(key);
      else inFlight.set(key, left);
    };
    let response: Response;
    try {
      response = await next();
    } catch (err) {
      release();
      throw err;
    }
    // a streamed answer (SSE on /v1/run, MCP progress) runs until its body ends: the slot is held until then
    return bodyDone(response, release);
  };
}
