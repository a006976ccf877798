import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** Faults the server applies per request path (see dataFolderServer.mjs). */
export interface Fault {
  status?: number;
  delayMs?: number;
  truncateAfter?: number;
  times?: number;
  corrupt?: boolean;
  redirect?: string;
  cacheControl?: string;
  noRange?: boolean;
}

/** A static server of one data folder on 127.0.0.1, in its own process, with faults and a request log. */
export interface DataFolderServer {
  url: string;
  host: string;
  faults(f: Record<string, Fault>): Promise<void>;
  log(): Promise<Array<{ path: string; range: string | null; inm: string | null }>>;
  clear(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts dataFolderServer.mjs over `root` and waits for its port (bounded: 20 s).
 * @example const s = await startDataFolderServer(dir); openRemoteDataset(s.url, cache)
 */
export async function startDataFolderServer(root: string): Promise<DataFolderServer> {
  const child: ChildProcess = spawn(process.execPath, [join(import.meta.dirname, 'dataFolderServer.mjs'), root], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the data folder server did not start within 20 s')), 20_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`the data folder server exited (${code})`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const post = async (path: string, body: unknown) =>
    void (await (await fetch(`${base}${path}`, { method: 'POST', body: JSON.stringify(body) })).text());
  return {
    url: `${base}/`,
    host: `127.0.0.1:${port}`,
    faults: (f) => post('/__faults', f),
    clear: () => post('/__clear', {}),
    log: async () =>
      (await (await fetch(`${base}/__log`)).json()) as Array<{
        path: string;
        range: string | null;
        inm: string | null;
      }>,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
