import type { Route } from './route.js';

/** `GET /metrics`: Prometheus text format from the server's own registry. Needs a key when keys are set. */
export const metrics: Route = {
  method: 'GET',
  path: '/metrics',
  auth: true,
  handle: async (_ctx, app) =>
    new Response(await app.metrics.registry.metrics(), {
      headers: { 'content-type': app.metrics.registry.contentType, 'cache-control': 'no-store' },
    }),
};
