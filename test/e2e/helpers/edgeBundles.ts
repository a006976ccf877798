// What the edge bundle tests (Workers in workerd, Vercel Edge in edge-runtime) share: the CLI run
// as a child process, the library's own answers to compare with, and a larger generated data
// folder served whole-file by a static host on loopback.
import { execFile } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { expect } from 'vitest';
import { CLI, cliEnv, ROOT } from './processes.js';

export function exec(args: string[], env = cliEnv()): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The library's own answers (isolated-vm, in a holder of this process) on the same data. */
export async function expectedAnswers(
  dataDir: string,
  codes: readonly { name: string; code: string }[],
): Promise<Record<string, unknown>> {
  const { run, shutdown } = await import(join(ROOT, 'dist', 'src', 'index.js'));
  const out: Record<string, unknown> = {};
  for (const q of codes) {
    const r = await run(q.code, { dataPath: dataDir });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    out[q.name] = r.value;
  }
  await shutdown();
  return out;
}

/**
 * 40,000 generated rows built into a data folder: numeric and categorical columns of a few MB, an
 * Abstract column of ~55 MB once inflated, over the edge's 24 MB per column.
 */
export async function buildLargeData(work: string): Promise<string> {
  const csv = join(work, 'large.csv');
  const dataDir = join(work, 'large-data');
  const gen = await exec([
    '--input-type=module',
    '-e',
    `const { writeSyntheticCsv } = await import(${JSON.stringify(join(ROOT, 'dist', 'src', 'data', 'synthetic.js'))}); await writeSyntheticCsv(${JSON.stringify(csv)}, { rows: 40000, seed: 7 });`,
  ]);
  expect(gen.code, gen.stderr).toBe(0);
  const built = await exec([CLI, 'build-data', dataDir, '--data', csv]);
  expect(built.code, built.stderr).toBe(0);
  return dataDir;
}

/** A static host on 127.0.0.1 serving `dir` whole files by GET under /data/; `requests` lists the paths asked for. */
export async function serveFolder(dir: string): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').replace(/^\/data\//, '');
    const file = join(dir, path);
    if (!req.url?.startsWith('/data/') || path.includes('..') || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    requests.push(path);
    res.writeHead(200, { 'content-length': statSync(file).size });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/data/`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
