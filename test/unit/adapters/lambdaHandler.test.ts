import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lambdaHandler } from '../../../src/adapters/lambdaHandler.js';
import { shutdown } from '../../../src/index.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'lambda', `${name}.json`), 'utf8'));
afterAll(() => shutdown());

describe('lambdaHandler(): API Gateway HTTP API v2 and Function URL events', () => {
  const handler = lambdaHandler({ sandbox: { preset: 'strict' } });

  it('answers a plain and a base64 body with the RunResult as JSON text', async () => {
    const plain = await handler({ ...fixture('http-api-v2'), body: JSON.stringify({ code: '6 * 7' }) });
    expect(plain).toMatchObject({ statusCode: 200, isBase64Encoded: false });
    expect(plain.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(plain.body).value).toBe(42);
    const encoded = await handler({
      ...fixture('function-url'),
      body: Buffer.from(JSON.stringify({ code: '"é" + 1' })).toString('base64'),
    });
    expect(JSON.parse(encoded.body).value).toBe('é1');
  });

  it('maps the handler statuses: 405 for GET, 400 for bad JSON or no code', async () => {
    const get = fixture('function-url');
    get.requestContext.http.method = 'GET';
    expect((await handler(get)).statusCode).toBe(405);
    const bad = await handler({ ...fixture('http-api-v2'), body: '{not json' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body).error.type).toBe('VALIDATION_ERROR');
    expect((await handler({ ...fixture('http-api-v2'), body: '{}' })).statusCode).toBe(400);
  });

  it('refuses another event shape with 400 naming what it expects', async () => {
    for (const event of [{ httpMethod: 'POST', body: '{}' }, null, {}]) {
      const r = await handler(event as never);
      expect(r.statusCode).toBe(400);
      expect(JSON.parse(r.body).error.message).toMatch(/payload format 2\.0/);
    }
  });
});
