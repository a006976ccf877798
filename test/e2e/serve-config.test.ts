import { describe, expect, it } from 'vitest';
import { startServe, stop } from './helpers/serve.js';

const KEY = 'config-test-key-0123456789';

/**
 * `sbirtools serve` with only environment settings: $PORT (a free port, picked again if another
 * process takes it first) and SBIRTOOLS_METRICS_AUTH. Returns the server and the $PORT it was given.
 */
async function serveFromEnv(env: Record<string, string>) {
  let given = 0;
  const s = await startServe(
    ['--quiet'],
    (port) => {
      given = port;
      return { PORT: String(port), ...env };
    },
    { port: 'env' },
  );
  return { s, given };
}

describe('sbirtools serve configuration from the environment', () => {
  it('listens on $PORT, and SBIRTOOLS_METRICS_AUTH=none opens /metrics while runs still need a key', async () => {
    const { s, given } = await serveFromEnv({ SBIRTOOLS_API_KEYS: KEY, SBIRTOOLS_METRICS_AUTH: 'none' });
    try {
      expect(s.port).toBe(given);
      const metrics = await fetch(`${s.url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('sbirtools_http_requests_total');
      expect((await fetch(`${s.url}/v1/sessions`)).status).toBe(401);
    } finally {
      await stop(s);
    }
  }, 120_000);

  it('keeps /metrics behind the key by default', async () => {
    const { s } = await serveFromEnv({ SBIRTOOLS_API_KEYS: KEY });
    try {
      expect((await fetch(`${s.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
    } finally {
      await stop(s);
    }
  }, 120_000);

  it('a session variable that is missing gets a hint about the session', async () => {
    const { s } = await serveFromEnv({ SBIRTOOLS_API_KEYS: KEY });
    try {
      const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
      const sid = (await (await fetch(`${s.url}/v1/sessions`, { method: 'POST', headers, body: '{}' })).json())
        .session_id;
      const r = await (
        await fetch(`${s.url}/v1/run`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ code: 'myVar + 1', session_id: sid }),
        })
      ).json();
      expect(r.error.hint).toContain(`\`myVar\` is not defined in session ${sid}`);
      expect(r.error.hint).not.toMatch(/Did you mean/);
    } finally {
      await stop(s);
    }
  }, 120_000);
});
