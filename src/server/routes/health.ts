import { json } from '../respond.js';
import type { Route } from './route.js';

/** `GET /healthz`: the process is alive (always 200 while it answers). No key needed. */
export const healthz: Route = {
  method: 'GET',
  path: '/healthz',
  auth: false,
  handle: async () => json({ ok: true }),
};

/** `GET /readyz`: data open, holder up, store reachable; 503 while draining or when a check fails. No key needed. */
export const readyz: Route = {
  method: 'GET',
  path: '/readyz',
  auth: false,
  handle: async (_ctx, app) => {
    const checks = await app.readiness();
    const ready = Object.values(checks).every(Boolean);
    return json({ ready, checks }, ready ? 200 : 503, ready ? {} : { 'retry-after': '1' });
  },
};
