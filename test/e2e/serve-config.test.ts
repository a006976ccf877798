import { describe, expect, it } from 'vitest';
import { freePort } from './helpers/processes.js';
import { startServe, stop } from './helpers/serve.js';

const KEY = 'config-test-key-0123456789';

/** `sbirtools serve` with only environment settings: $PORT and SBIRTOOLS_METRICS_AUTH. */
const serveFromEnv = (env: Record<string, string>) => startServe(['--quiet'], env, { port: 'env' });

describe('sbirtools serve configuration from the environment', () => {
  it('listens on $PORT, and SBIRTOOLS_METRICS_AUTH=none opens /metrics while runs still need a key', async () => {
    const port = await freePort();
    const s = await serveFromEnv({ PORT: String(port), SBIRTOOLS_API_KEYS: KEY, SBIRTOOLS_METRICS_AUTH: 'none' });
    try {
      expect(s.port).toBe(port);
      const metrics = await fetch(`${s.url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('sbirtools_http_requests_total');
      expect((await fetch(`${s.url}/v1/sessions`)).status).toBe(401);
    } finally {
      await stop(s);
    }
  }, 120_000);

  it('keeps /metrics behind the key by default', async () => {
    const port = await freePort();
    const s = await serveFromEnv({ PORT: String(port), SBIRTOOLS_API_KEYS: KEY });
    try {
      expect((await fetch(`${s.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
    } finally {
      await stop(s);
    }
  }, 120_000);

  it('a session variable that is missing gets a hint about the session', async () => {
    const port = await freePort();
    const s = await serveFromEnv({ PORT: String(port), SBIRTOOLS_API_KEYS: KEY });
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
