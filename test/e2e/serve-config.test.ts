import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, cliEnv, freePort, ROOT } from './helpers/processes.js';
import { stop, type ServeProcess } from './helpers/serve.js';

const KEY = 'config-test-key-0123456789';

/** `sbirtools serve` with only environment settings: $PORT and SBIRTOOLS_METRICS_AUTH. */
async function serveFromEnv(env: Record<string, string>): Promise<ServeProcess & { port: number }> {
  const proc = spawn(process.execPath, [CLI, 'serve', '--quiet'], {
    cwd: ROOT,
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | string>((resolve) =>
    proc.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  for (let i = 0; i < 1200 && !/listening on/.test(err); i++) {
    if (proc.exitCode !== null) throw new Error(`serve exited: ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const port = Number(/:(\d+) \(MCP/.exec(err)?.[1]);
  return { proc, url: `http://127.0.0.1:${port}`, port, stdout: () => out, stderr: () => err, exited };
}

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
