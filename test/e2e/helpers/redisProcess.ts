import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, retryOnPortTaken, ROOT } from './processes.js';

/** A redis-server a test controls: stop, kill, restart on the same port, pause (SIGSTOP) and resume. */
export interface RedisProcess {
  url: string;
  port: number;
  /** `redis-cli` against it (with its password); the reply text. */
  cli(...args: string[]): string;
  pause(): void;
  resume(): void;
  /** SIGKILL, then wait for the exit. */
  kill(): Promise<void>;
  /** Start again on the same port with the same options. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Start redis-server on a free loopback port (installed by scripts/install-redis.sh when missing),
 * without persistence, with DEBUG allowed (DEBUG SLEEP slows it), optionally with a password and
 * TLS (then `url` is `rediss://`).
 */
export async function startRedisProcess(
  opts: { password?: string; tls?: { cert: string; key: string } } = {},
): Promise<RedisProcess> {
  const bin = execFileSync('sh', [join(ROOT, 'scripts', 'install-redis.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
    .trim()
    .split('\n')
    .pop()!;
  let port = 0;
  const dir = mkdtempSync(join(tmpdir(), 'sbirtools-redis-'));
  const portArgs = () =>
    opts.tls
      ? [
          '--port',
          '0',
          '--tls-port',
          String(port),
          '--tls-cert-file',
          opts.tls.cert,
          '--tls-key-file',
          opts.tls.key,
          '--tls-auth-clients',
          'no',
        ]
      : ['--port', String(port)];
  const args = () => [
    ...portArgs(),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--enable-debug-command',
    'yes',
    ...(opts.password ? ['--requirepass', opts.password] : []),
  ];
  let proc: ChildProcess;
  let exited: Promise<void>;
  const start = async () => {
    proc = spawn(bin, args(), { stdio: ['ignore', 'pipe', 'pipe'] });
    exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    let log = '';
    proc.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    const deadline = Date.now() + 20_000;
    while (!/Ready to accept connections/.test(log)) {
      if (proc.exitCode !== null) throw new Error(`redis-server exited: ${log}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not start: ${log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  // a port free when picked may be taken before redis-server binds it: pick another then
  await retryOnPortTaken(async () => {
    port = await freePort();
    await start();
  });
  const auth = opts.password ? `:${encodeURIComponent(opts.password)}@` : '';
  const cliArgs = [
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    ...(opts.password ? ['--no-auth-warning', '-a', opts.password] : []),
    ...(opts.tls ? ['--tls', '--cacert', opts.tls.cert] : []),
  ];
  return {
    url: `${opts.tls ? 'rediss' : 'redis'}://${auth}127.0.0.1:${port}`,
    port,
    cli: (...a) => execFileSync('redis-cli', [...cliArgs, ...a], { encoding: 'utf8' }).trim(),
    pause: () => void proc.kill('SIGSTOP'),
    resume: () => void proc.kill('SIGCONT'),
    kill: async () => {
      proc.kill('SIGCONT');
      proc.kill('SIGKILL');
      await exited;
    },
    restart: start,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGCONT');
        proc.kill('SIGTERM');
      }
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
