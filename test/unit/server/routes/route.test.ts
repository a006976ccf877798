import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../../../src/server/routes/route.js';
import { ROUTES } from '../../../../src/server/routes/routes.js';

describe('matchRoute', () => {
  it('matches the routes table with parameters and reports allowed methods', () => {
    expect(matchRoute(ROUTES, 'DELETE', '/v1/sessions/abc').params).toEqual({ id: 'abc' });
    expect(matchRoute(ROUTES, 'POST', '/v1/run').route?.path).toBe('/v1/run');
    expect(matchRoute(ROUTES, 'PUT', '/v1/run').route).toBeUndefined();
    expect(matchRoute(ROUTES, 'PUT', '/v1/run').allowed).toEqual(['POST']);
    expect(matchRoute(ROUTES, 'GET', '/nope').allowed).toEqual([]);
    expect(matchRoute(ROUTES, 'DELETE', '/v1/sessions/').route).toBeUndefined();
  });
});
