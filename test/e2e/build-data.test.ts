import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv, ROOT } from './helpers/processes.js';

function exec(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const listing = (dir: string): string =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((f) => `${f}:${statSync(join(dir, f)).size}:${statSync(join(dir, f)).mtimeMs}`)
    .join(',');

describe('sbirtools build-data: a read-only data directory for serverless', () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'sbirtools-datadir-')), 'data');
  afterAll(() => rmSync(dirname(dir), { recursive: true, force: true }));

  it('builds the directory, and a fresh process answers from it with createHandler while unable to write anywhere', async () => {
    const built = await exec([CLI, 'build-data', dir], cliEnv());
    expect(built.code, built.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['columns', 'sbirtools-data.json']);
    const manifest = JSON.parse(readFileSync(join(dir, 'sbirtools-data.json'), 'utf8'));
    expect(readdirSync(join(dir, 'columns'))).toHaveLength(manifest.columns.length);
    const before = listing(dir);
    const script = `
      const { createHandler, shutdown } = await import(${JSON.stringify(join(ROOT, 'dist', 'src', 'index.js'))});
      const res = await createHandler({ sandbox: { dataPath: process.env.DATA_DIR } })(new Request('http://fn/', { method: 'POST', body: JSON.stringify({ code: 'award_data.numRows()' }) }));
      console.log(res.status, JSON.stringify((await res.json()).value));
      await shutdown();`;
    // the cache dir and HOME lie under /dev/null: any write (even mkdir) would fail, even as root
    const env = { ...cliEnv(), DATA_DIR: dir, SBIRTOOLS_CACHE_DIR: '/dev/null/cache', HOME: '/dev/null/home' };
    const r = await exec(['--no-node-snapshot', '--input-type=module', '-e', script], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^200 \d+$/);
    expect(Number(r.stdout.trim().split(' ')[1])).toBe(
      JSON.parse(readFileSync(join(dir, 'sbirtools-data.json'), 'utf8')).info.rows,
    );
    expect(listing(dir)).toBe(before);
    // the CLI takes it as --data too
    const cli = await exec([CLI, 'run', '--data', dir, '--code', 'award_data.numRows() > 0'], env);
    expect(cli.stdout).toMatch(/true/);
  });

  it('a damaged data directory is refused with CACHE_CORRUPT and the command to rebuild it, never rewritten', async () => {
    const file = join(dir, 'columns', '00.col');
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 100));
    const before = listing(dir);
    const r = await exec([CLI, 'run', '--data', dir, '--code', '1'], {
      ...cliEnv(),
      SBIRTOOLS_CACHE_DIR: '/dev/null/cache',
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr + r.stdout).toMatch(/CACHE_CORRUPT[\s\S]*sbirtools build-data/);
    expect(listing(dir)).toBe(before);
  });

  it('usage errors name the problem', async () => {
    const r = await exec([CLI, 'build-data'], cliEnv());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing the output folder/);
  });
});
