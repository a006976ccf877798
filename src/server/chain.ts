import type { Middleware, RequestContext } from './context.js';

/** Compose middleware in the order given, ending in `last`. */
export function chain(
  steps: Middleware[],
  last: (ctx: RequestContext) => Promise<Response>,
): (ctx: RequestContext) => Promise<Response> {
  return (ctx) => {
    const at = (i: number): Promise<Response> => (i === steps.length ? last(ctx) : steps[i]!(ctx, () => at(i + 1)));
    return at(0);
  };
}
