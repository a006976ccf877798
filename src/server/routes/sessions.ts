import { SESSION_ID } from '../../../schema/tool.js';
import { fail, json } from '../respond.js';
import type { Route } from './route.js';

/** `POST /v1/sessions`: a new session of the caller's key -> 201 `{ session_id }`. */
export const createSession: Route = {
  method: 'POST',
  path: '/v1/sessions',
  auth: true,
  // a session costs from the same budget as a run: opening many must not multiply a caller's runs
  chargesBudget: () => true,
  chargedByHead: true,
  handle: async (ctx, app) => {
    const id = await app.sessions.create(ctx.keyId);
    ctx.log.sessionId = id;
    return json({ session_id: id }, 201, { location: `/v1/sessions/${id}` });
  },
};

/** `GET /v1/sessions`: the caller's key's sessions (never another key's). */
export const listSessions: Route = {
  method: 'GET',
  path: '/v1/sessions',
  auth: true,
  handle: async (ctx, app) =>
    json({ sessions: (await app.sessions.list(ctx.keyId)).map((id: string) => ({ session_id: id })) }),
};

/** `DELETE /v1/sessions/:id`: close a session of the caller's key -> 204; 404 for any other id. */
export const deleteSession: Route = {
  method: 'DELETE',
  path: '/v1/sessions/:id',
  auth: true,
  handle: async (ctx, app) => {
    const id = ctx.params.id!;
    if (!SESSION_ID.test(id))
      return fail(
        400,
        'VALIDATION_ERROR',
        `The session id ${JSON.stringify(id.slice(0, 140))} is not a session id: 1-128 letters, digits and \`_ - . :\`.`,
        {},
        'Use the session_id POST /v1/sessions returned.',
      );
    ctx.log.sessionId = id;
    if (await app.sessions.remove(ctx.keyId, id)) return new Response(null, { status: 204 });
    return fail(
      404,
      'SESSION_NOT_FOUND',
      `This API key has no session "${id}" (closed, expired, or never created).`,
      {},
      'Create one with POST /v1/sessions.',
    );
  },
};
