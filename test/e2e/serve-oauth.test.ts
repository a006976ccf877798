import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, stop, type ServeProcess } from './helpers/serve.js';

const API_KEY = 'static-key-bbbbbbbbbbbbbbbbbbbbbb';

/** A loopback authorization server: RFC 8414 metadata and a JWKS whose keys the test rotates. */
async function startIssuer(): Promise<{ url: string; keys: JWK[]; fetches: () => number; close: () => Promise<void> }> {
  const keys: JWK[] = [];
  let fetches = 0;
  let url = '';
  const server: Server = createServer((req, res) => {
    if (req.url === '/.well-known/oauth-authorization-server') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ issuer: url, jwks_uri: `${url}/jwks`, token_endpoint: `${url}/token` }));
    } else if (req.url === '/jwks') {
      fetches++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, keys, fetches: () => fetches, close: () => new Promise((r) => server.close(() => r())) };
}

async function keyPair(
  kid: string,
  alg = 'RS256',
): Promise<{ kid: string; alg: string; privateKey: CryptoKey; jwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

describe('sbirtools serve as an OAuth 2.1 resource server', () => {
  let issuer: Awaited<ReturnType<typeof startIssuer>>;
  let s: ServeProcess;
  let audience: string;
  let k1: Awaited<ReturnType<typeof keyPair>>;

  const sign = async (
    key: { kid: string; alg: string; privateKey: CryptoKey },
    claims: Record<string, unknown> = {},
    opts: { iss?: string; aud?: string; exp?: number | string; sub?: string } = {},
  ) =>
    new SignJWT({ scope: 'sbirtools:run sbirtools:sessions', ...claims })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' })
      .setIssuer(opts.iss ?? issuer.url)
      .setAudience(opts.aud ?? audience)
      .setSubject(opts.sub ?? 'alice')
      .setIssuedAt()
      .setExpirationTime(opts.exp ?? '5m')
      .sign(key.privateKey);

  const run = (token: string, code = '6 * 7', session_id?: string) =>
    fetch(`${s.url}/v1/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ code, ...(session_id ? { session_id } : {}) }),
    });

  beforeAll(async () => {
    issuer = await startIssuer();
    k1 = await keyPair('key-1');
    issuer.keys.push(k1.jwk);
    // the audience names the server's own URL: set for whichever port serve binds
    s = await startServe(['--quiet', '--oauth-issuer', issuer.url], (port) => ({
      SBIRTOOLS_OAUTH_AUDIENCE: `http://127.0.0.1:${port}/mcp`,
      SBIRTOOLS_API_KEYS: API_KEY,
    }));
    audience = `${s.url}/mcp`;
  });
  afterAll(async () => {
    await stop(s);
    await issuer?.close();
  });

  it('serves the protected-resource metadata, and a 401 names it', async () => {
    const meta = await (await fetch(`${s.url}/.well-known/oauth-protected-resource`)).json();
    expect(meta).toMatchObject({
      resource: audience,
      authorization_servers: [issuer.url],
      scopes_supported: ['sbirtools:run', 'sbirtools:sessions', 'sbirtools:metrics'],
    });
    expect(await (await fetch(`${s.url}/.well-known/oauth-protected-resource/mcp`)).json()).toEqual(meta);
    const res = await fetch(`${s.url}/v1/run`, { method: 'POST', body: '{"code":"1"}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${s.url}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('accepts a valid token, and the static API keys beside it', async () => {
    const res = await run(await sign(k1));
    expect(res.status).toBe(200);
    expect((await res.json()).value).toBe(42);
    expect((await run(API_KEY)).status).toBe(200);
  });

  it.each([
    ['expired', () => sign(k1, {}, { exp: Math.floor(Date.now() / 1000) - 3600 }), /expired/],
    ['for another audience', () => sign(k1, {}, { aud: 'https://other.example.com/mcp' }), /not for this server/],
    ['from another issuer', () => sign(k1, {}, { iss: 'http://127.0.0.1:1/evil' }), /another issuer/],
    [
      'signed with a key the issuer does not publish',
      async () => sign(await keyPair('key-1')),
      /signature does not verify/,
    ],
    ['with an unknown key id', async () => sign(await keyPair('nobody-knows')), /unknown `kid`/],
    [
      'unsigned (alg none)',
      async () => {
        const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
        const now = Math.floor(Date.now() / 1000);
        return `${b64({ alg: 'none', typ: 'JWT', kid: 'key-1' })}.${b64({ iss: issuer.url, aud: audience, sub: 'alice', exp: now + 300, scope: 'sbirtools:run' })}.`;
      },
      /algorithm|not a valid signed JWT/,
    ],
    [
      'signed with HS256 using the public key as the secret',
      async () => {
        const secret = new TextEncoder().encode(JSON.stringify(k1.jwk));
        return new SignJWT({ scope: 'sbirtools:run' })
          .setProtectedHeader({ alg: 'HS256', kid: 'key-1' })
          .setIssuer(issuer.url)
          .setAudience(audience)
          .setSubject('alice')
          .setExpirationTime('5m')
          .sign(secret);
      },
      /algorithm/,
    ],
  ])('refuses a token %s with 401 invalid_token', async (_name, make, message) => {
    const res = await run(await make());
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=".*", error="invalid_token"/);
    expect((await res.json()).error.message).toMatch(message);
  });

  it("follows a key rotation: a token signed with the new key verifies, the retired key's no longer does", async () => {
    const k2 = await keyPair('key-2', 'ES256');
    const old = await sign(k1);
    expect((await run(old)).status).toBe(200);
    issuer.keys.splice(0, issuer.keys.length, k2.jwk);
    const before = issuer.fetches();
    expect((await run(await sign(k2))).status).toBe(200);
    expect(issuer.fetches()).toBe(before + 1);
    // the retired key is still cached until its max age; sign with a rotated-out kid the cache never had
    const k3 = await keyPair('key-3');
    expect((await run(await sign(k3))).status).toBe(401);
  });

  it("maps scopes to access: 403 insufficient_scope without the route's scope", async () => {
    const key = await keyPair('key-4');
    issuer.keys.push(key.jwk);
    const runOnly = await sign(key, { scope: 'sbirtools:run' });
    const sessions = await fetch(`${s.url}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${runOnly}` },
    });
    expect(sessions.status).toBe(403);
    expect(sessions.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="sbirtools:sessions"/);
    const metrics = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${runOnly}` } });
    expect(metrics.status).toBe(403);
    const withMetrics = await sign(key, { scope: 'sbirtools:metrics' });
    expect((await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${withMetrics}` } })).status).toBe(200);
    expect((await run(withMetrics)).status).toBe(403);
  });

  it('keys sessions by the token subject, and speaks MCP with a token', async () => {
    const key = await keyPair('key-5');
    issuer.keys.push(key.jwk);
    const alice = await sign(key, {}, { sub: 'alice' });
    const bob = await sign(key, {}, { sub: 'bob' });
    const created = await fetch(`${s.url}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice}` },
    });
    const { session_id: id } = (await created.json()) as { session_id: string };
    expect((await run(alice, 'const secret = 7', id)).status).toBe(200);
    expect((await (await run(alice, 'secret', id)).json()).value).toBe(7);
    // the same issuer and key, another subject: alice's session is not bob's
    expect((await run(bob, 'secret', id)).status).toBe(404);
    const listed = await (await fetch(`${s.url}/v1/sessions`, { headers: { authorization: `Bearer ${bob}` } })).json();
    expect(listed).toEqual({ sessions: [] });
    const c = new Client({ name: 'oauth-e2e', version: '1.0.0' });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${alice}` } },
      }),
    );
    const res = await c.callTool({ name: 'run_analysis', arguments: { code: 'secret * 6', session_id: id } });
    expect((res.structuredContent as { value: unknown }).value).toBe(42);
    await c.close();
  });
});
