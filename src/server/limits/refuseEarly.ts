import type { Middleware, RequestContext } from '../context.js';
import { fail } from '../respond.js';
import type { RefusalPacer } from './refusalPacer.js';

/** What a refusal means for this request: a run's code never started, or a session was not created. */
export function notStarted(ctx: RequestContext): string {
  return ctx.route.isRun?.(ctx) === true ? 'this code never started' : 'this session was not created';
}

/** The identity requests are counted under: the normalised one, never the credential. */
export function budgetId(ctx: RequestContext): string {
  return ctx.identity?.id ?? ctx.keyId;
}

/**
 * The answer to a caller that came back inside the Retry-After of its last refusal, or undefined
 * when it did not (or this request costs nothing from its budget). Nothing is asked of Redis or
 * the queue: the caller was told when to come back. The answer is held until that moment (at
 * most `maxRefusalHoldMs`; RefusalPacer), then says `429` with the `Retry-After` still left (at
 * least 1 s); when too many answers are held already it goes at once, with `Connection: close`.
 */
export async function refuseEarly(
  ctx: RequestContext,
  pacer: RefusalPacer,
  onLimited: (reason: string) => void,
): Promise<Response | undefined> {
  const runs = ctx.route.isRun?.(ctx) === true;
  if (!runs && ctx.route.chargesBudget?.(ctx) !== true) return undefined;
  const early = pacer.early(budgetId(ctx));
  // a refusal for runs in flight or queued says nothing of a session creation, which takes no slot
  if (!early || (!runs && early.reason !== 'per-minute')) return undefined;
  ctx.log.budget = 'refused-early';
  onLimited('early');
  const held = await pacer.hold(early, ctx.request.signal);
  const retryS = Math.max(1, Math.ceil((early.until - Date.now()) / 1000));
  return fail(
    429,
    'RATE_LIMITED',
    `${early.message}; ${notStarted(ctx)}. This caller came back before the Retry-After it was given, so it was refused again without a look.`,
    {
      'retry-after': String(retryS),
      'sbirtools-code-ran': 'false',
      ...(held ? {} : { connection: 'close' }),
    },
    `Retry after ${retryS} s. A caller that comes back sooner waits that long for its refusal.`,
  );
}

/**
 * Before the body is read: a caller inside the Retry-After of its last refusal is refused here,
 * on routes whose cost is known from the head (`Route.chargedByHead`: `/v1/run`,
 * `POST /v1/sessions`, the viewer's replay). On `/mcp` the budget makes the same check once the
 * body says whether it calls a tool.
 */
export function refuseEarlyAtHead(pacer: RefusalPacer, onLimited: (reason: string) => void): Middleware {
  return async (ctx, next) => {
    if (!ctx.route.chargedByHead) return next();
    return (await refuseEarly(ctx, pacer, onLimited)) ?? next();
  };
}
