import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunResultSchema } from '../../src/index.js';
import { cli } from './helpers/cli.js';
import { childPids, CLI, cliEnv, ROOT, waitGone } from './helpers/processes.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'sbirtools-cli-'));

describe('sbirtools run', () => {
  it('prints the value and says the data is the synthetic sample', async () => {
    const r = await cli(['run', '--code', 'print("rows:", award_data.numRows()); 6 * 7']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^rows: \d+\n\n42\n$/);
    expect(r.stderr).toMatch(/SYNTHETIC sample/);
  });

  it('--json prints one RunResult document', async () => {
    const r = await cli(['run', '--json', '--preset', 'strict', '--code', "value_counts(award_data, 'Agency')"]);
    expect(r.code).toBe(0);
    const result = RunResultSchema.parse(JSON.parse(r.stdout));
    expect(result.ok).toBe(true);
    expect(result.limits.timeoutMs).toBe(10_000);
    expect(result.table?.markdown).toMatch(/Agency/);
  });

  it('reads a file and stdin', async () => {
    const file = join(tmp(), 'a.js');
    writeFileSync(file, 'const n = 20;\nn + 1');
    expect((await cli(['run', file])).stdout).toBe('21\n');
    expect((await cli(['run', '-'], { input: '2 ** 10' })).stdout).toBe('1024\n');
  });

  it('a guest error: exit 1, type, message, snippet and hint on stderr', async () => {
    const r = await cli(['run', '--code', 'const x = 1;\nx.nope()']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^RUNTIME_ERROR: TypeError: .*line 2/m);
    expect(r.stderr).toMatch(/x\.nope\(\)/);
    expect(r.stderr).toMatch(/^hint: /m);
  });

  it('a limit: exit 3', async () => {
    const r = await cli(['run', '--timeout-ms', '300', '--code', 'while (true) {}']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^TIMEOUT: /m);
  });

  it('--svg writes one chart as file.svg, several as file-1.svg, file-2.svg', async () => {
    const dir = tmp();
    const one = await cli([
      'run',
      '--svg',
      join(dir, 'one.svg'),
      '--code',
      "plot.bar(value_counts(award_data, 'Agency').head(3), 'Agency', 'count')",
    ]);
    expect(one.code).toBe(0);
    expect(readFileSync(join(dir, 'one.svg'), 'utf8')).toMatch(/^<svg /);
    const two = await cli([
      'run',
      '--svg',
      join(dir, 'two.svg'),
      '--code',
      "plot.bar(value_counts(award_data, 'Phase'), 'Phase', 'count'); plot.hist(award_data, 'Award Amount'); 1",
    ]);
    expect(two.code).toBe(0);
    expect(two.stderr).toContain(`wrote ${join(dir, 'two-1.svg')}, ${join(dir, 'two-2.svg')}`);
    expect(readFileSync(join(dir, 'two-2.svg'), 'utf8')).toMatch(/^<svg /);
    const plotly = await cli([
      'run',
      '--svg',
      join(dir, 'p.svg'),
      '--code',
      "chart({ data: [{ type: 'bar', x: ['a'], y: [1] }], layout: {} })",
    ]);
    expect(plotly.code).toBe(0);
    expect(readFileSync(join(dir, 'p.svg'), 'utf8')).toMatch(/^<svg /);
  });

  it('Ctrl-C cancels the run: exit 130 and no holder process left', async () => {
    const child = spawn(process.execPath, [CLI, 'run', '--code', 'while (true) {}', '--timeout-ms', '120000'], {
      cwd: ROOT,
      env: cliEnv(),
      stdio: 'pipe',
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let holders: number[] = [];
    for (let i = 0; i < 400 && holders.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      holders = childPids(child.pid!);
    }
    expect(holders.length).toBeGreaterThan(0);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(await waitGone(holders)).toEqual([]);
  });
});
