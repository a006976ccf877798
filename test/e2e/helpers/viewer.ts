import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { CLI, cliEnv, ROOT } from './processes.js';

/** A running `sbirtools view` process and its URL. */
export interface ViewerProcess {
  child: ChildProcess;
  url: string;
  stop(): Promise<number | null>;
}

/** Start `sbirtools view <log> ...args` and wait for the URL it prints. */
export async function startViewer(log: string, args: string[] = []): Promise<ViewerProcess> {
  const child = spawn(process.execPath, [CLI, 'view', log, ...args], {
    cwd: ROOT,
    env: cliEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`sbirtools view printed no URL: ${out}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (m) {
        clearTimeout(timer);
        done(m[0]);
      }
    });
    child.once('exit', (code) => fail(new Error(`sbirtools view exited ${code}`)));
  });
  return {
    child,
    url,
    stop: async () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

/** One HTTP request on loopback; resolves status, headers and body text. */
export function fetchText(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((done, fail) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', fail);
    req.end(init.body);
  });
}

/** Open /events and resolve on the first `event: runs` (or reject after `ms`). */
export function nextRunsEvent(
  base: string,
  ms = 20_000,
): { ready: Promise<void>; event: Promise<void>; close(): void } {
  let close = () => {};
  let ready!: () => void;
  const readyP = new Promise<void>((r) => (ready = r));
  const event = new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error('no runs event')), ms);
    const req = request(`${base}events`, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c.toString();
        if (text.includes('retry:')) ready();
        if (text.includes('event: runs')) {
          clearTimeout(timer);
          done();
        }
      });
    });
    req.on('error', () => undefined);
    req.end();
    close = () => req.destroy();
  });
  return { ready: readyP, event, close: () => close() };
}

export { ROOT };
