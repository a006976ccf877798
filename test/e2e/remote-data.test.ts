import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDataFolderServer, type DataFolderServer } from '../helpers/dataFolderServer.js';
import { CLI, cliEnv, ROOT } from './helpers/processes.js';

function exec(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

// a group-by and a long-text column: the questions a function answers first
const GROUP = "award_data.groupby('Agency').count().objects().map(r => r.Agency + '=' + r.count).sort().join(';')";
const TEXT = "award_data.array('Abstract').filter(a => a && a.includes('e')).length";

describe('remote data end to end: the sandbox answers over a data folder served on loopback', () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'sbirtools-remote-e2e-')), 'data');
  let server: DataFolderServer;
  beforeAll(async () => {
    const built = await exec([CLI, 'build-data', dir], cliEnv());
    expect(built.code, built.stderr).toBe(0);
    server = await startDataFolderServer(dir);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dirname(dir), { recursive: true, force: true });
  });

  it("library: run() with dataPath = the URL gives the local folder's answers, in a process that can write only its temp dir", async () => {
    const script = `
      const { run, shutdown } = await import(${JSON.stringify(join(ROOT, 'dist', 'src', 'index.js'))});
      const out = [];
      for (const dataPath of [process.env.DATA_URL, process.env.DATA_DIR]) {
        for (const code of [${JSON.stringify(GROUP)}, ${JSON.stringify(TEXT)}]) {
          const r = await run(code, { dataPath });
          out.push(r.ok ? r.value : 'ERR ' + JSON.stringify(r.error));
        }
      }
      console.log(JSON.stringify(out));
      await shutdown();`;
    const tmp = mkdtempSync(join(tmpdir(), 'sbirtools-remote-tmp-'));
    // HOME is unwritable and no cache dir is set: remote columns are cached under TMPDIR
    const env = { ...cliEnv(), DATA_URL: server.url, DATA_DIR: dir, HOME: '/dev/null/home', TMPDIR: tmp };
    delete (env as Record<string, string | undefined>).SBIRTOOLS_CACHE_DIR;
    await server.clear();
    const r = await exec(['--no-node-snapshot', '--input-type=module', '-e', script], env);
    expect(r.code, r.stderr).toBe(0);
    const [remoteGroup, remoteText, localGroup, localText] = JSON.parse(
      r.stdout.trim().split('\n').pop()!,
    ) as unknown[];
    expect(remoteGroup).toBe(localGroup);
    expect(remoteText).toBe(localText);
    expect(remoteText).toBeGreaterThan(0);
    const paths = (await server.log()).map((l) => l.path);
    expect(paths[0]).toBe('/sbirtools-data.json');
    expect(paths.filter((p) => p.endsWith('.col')).length).toBe(2); // Agency and Abstract, once each
    const cached = readdirSync(join(tmp, 'sbirtools', 'remote'));
    expect(cached).toHaveLength(1);
    rmSync(tmp, { recursive: true, force: true });
  });

  it('CLI: --data <URL> answers; a failed fetch is DATA_FETCH_FAILED with host, path and status, never a stack', async () => {
    const env = cliEnv();
    const ok = await exec([CLI, 'run', '--data', server.url, '--code', GROUP], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/=\d+/);
    await server.faults({ '/sbirtools-data.json': { status: 404 } });
    try {
      const bad = await exec([CLI, 'run', '--data', `${server.url}`, '--code', GROUP], cliEnv());
      expect(bad.code).not.toBe(0);
      const text = bad.stderr + bad.stdout;
      expect(text).toMatch(/DATA_FETCH_FAILED/);
      expect(text).toContain(server.host);
      expect(text).toMatch(/sbirtools-data\.json/);
      expect(text).toMatch(/404/);
      expect(text).not.toMatch(/\n\s+at .+\.js:\d+/);
    } finally {
      await server.faults({});
    }
  });

  it('a column that cannot be fetched during a run is a guest error naming the column and the host', async () => {
    const env = cliEnv();
    const entry = (await (await fetch(`${server.url}sbirtools-data.json`)).json()) as {
      columns: Array<{ name: string; file: string }>;
    };
    await server.faults({ [`/${entry.columns.find((c) => c.name === 'Abstract')!.file}`]: { status: 404 } });
    try {
      const r = await exec([CLI, 'run', '--data', server.url, '--json', '--code', TEXT], env);
      const text = r.stdout + r.stderr;
      expect(text).toMatch(/column 'Abstract' of award_data could not be fetched/);
      expect(text).toContain(server.host);
      expect(text).toMatch(/404/);
    } finally {
      await server.faults({});
    }
  });
});
