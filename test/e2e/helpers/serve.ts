import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, cliEnv, freePort, retryOnPortTaken, ROOT } from './processes.js';
import { startRedisProcess } from './redisProcess.js';

/** A `sbirtools serve` child process. */
export interface ServeProcess {
  proc: ChildProcess;
  url: string;
  port: number;
  /** Everything it printed so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
}

/**
 * Start `sbirtools serve` on a free port (or `port`) and wait until it prints its URL. With
 * `port: 'env'` no --port is passed: the server picks it ($PORT in `env`) and the port is read from
 * the line it prints. `env` may be a function of the port (a setting that names the server's own
 * URL; with `port: 'env'`, the free port it is handed is the one to put in $PORT). A port picked here
 * is free when picked, not when serve binds it (another test process may take it in between): on
 * EADDRINUSE serve is started again on another free port.
 */
export async function startServe(
  args: string[],
  env: Record<string, string> | ((port: number) => Record<string, string>) = {},
  opts: { port?: number | 'env'; cacheDir?: string } = {},
): Promise<ServeProcess> {
  const fixed = typeof opts.port === 'number' || (opts.port === 'env' && typeof env !== 'function');
  if (fixed) return startServeOn(args, env, opts);
  return retryOnPortTaken(async () => startServeOn(args, env, { ...opts, picked: await freePort() }));
}

async function startServeOn(
  args: string[],
  envOf: Record<string, string> | ((port: number) => Record<string, string>),
  opts: { port?: number | 'env'; picked?: number; cacheDir?: string },
): Promise<ServeProcess> {
  const fromEnv = opts.port === 'env';
  let port = opts.picked ?? (fromEnv ? 0 : (opts.port as number));
  const env = typeof envOf === 'function' ? envOf(port) : envOf;
  const extra = opts.cacheDir ? { SBIRTOOLS_CACHE_DIR: opts.cacheDir, ...env } : env;
  const proc = spawn(process.execPath, [CLI, 'serve', ...(fromEnv ? [] : ['--port', String(port)]), ...args], {
    cwd: ROOT,
    env: cliEnv(extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | string>((resolve) =>
    proc.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const deadline = Date.now() + 60_000;
  while (!/listening on/.test(err)) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`sbirtools serve exited early: ${err}`);
    if (Date.now() > deadline) throw new Error(`sbirtools serve did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  if (fromEnv) port = Number(/:(\d+) \(MCP/.exec(err)?.[1]);
  return { proc, url: `http://127.0.0.1:${port}`, port, stdout: () => out, stderr: () => err, exited };
}

/** Stop a child and wait for it. */
export async function stop(p: ServeProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!p || p.proc.exitCode !== null || p.proc.signalCode !== null) return;
  p.proc.kill(signal);
  await p.exited;
}

/** A redis-server on a free loopback port, without persistence; stop() ends it. */
export async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  const redis = await startRedisProcess();
  return { url: redis.url, stop: redis.stop };
}

/** A shared empty cache folder so several replicas ingest the synthetic sample once. */
export function sharedCacheDir(): string {
  return mkdtempSync(join(tmpdir(), 'sbirtools-serve-cache-'));
}
