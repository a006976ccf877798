// A host where no isolated-vm build loads, as the CLI meets it: an installed copy of sbirtools
// whose node_modules has every dependency but the isolated-vm builds. The fallback must be said
// where the user looks (one stderr line, from the holder's discovery relayed to the host), `info`
// must name the engine and why, and asking for isolated-vm must be its own exit code.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers/processes.js';

let dir = '';

function cli(args: string[]) {
  const env = { ...process.env, SBIRTOOLS_CACHE_DIR: join(dir, 'cache') };
  delete env.SBIRTOOLS_ENGINE;
  delete env.NODE_OPTIONS;
  const r = spawnSync(process.execPath, [join(dir, 'bin', 'sbirtools.js'), ...args], {
    cwd: dir,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-no-engine-'));
  for (const part of ['package.json', 'bin', 'dist']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  mkdirSync(join(dir, 'node_modules'));
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (!/^isolated-vm/.test(name)) symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name));
  }
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('no native engine on this host', () => {
  it("'auto' answers on QuickJS and the CLI says so in one stderr line with the reason and the fix", () => {
    const r = cli(['run', '--json', '--code', '6 * 7']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ value: 42, engine: { name: 'quickjs' } });
    const lines = r.stderr.split('\n').filter((l) => l.includes('SBIRTOOLS_ENGINE_FALLBACK'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^sbirtools: warning: no isolated-vm build loads on Node v\d+.*Why: isolated-vm: Cannot find module 'isolated-vm'.*Fix: .*isolated-vm.*\[SBIRTOOLS_ENGINE_FALLBACK\]$/,
    );
    expect(r.stderr).not.toMatch(/--trace-warnings/);
  });

  it("--engine quickjs is the user's choice: no warning", () => {
    const r = cli(['run', '--engine', 'quickjs', '--code', '6 * 7']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/SBIRTOOLS_ENGINE_FALLBACK/);
  });

  it('--engine isolated-vm exits 69 (ENGINE_UNAVAILABLE) naming Node and the fix, not as a bug', () => {
    const r = cli(['run', '--engine', 'isolated-vm', '--code', '6 * 7']);
    expect(r.status).toBe(69);
    expect(r.stderr).toMatch(/^sbirtools run: ENGINE_UNAVAILABLE: No isolated-vm engine loads on Node v\d+/m);
    expect(r.stderr).not.toMatch(/INTERNAL_ERROR|\n\s+at /);
  });

  it('info names the engine in use and why', () => {
    const r = cli(['info', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const card = JSON.parse(r.stdout) as { engine: { auto: string; fallback?: { reason: string; fix: string } } };
    expect(card.engine.auto).toBe('quickjs');
    expect(card.engine.fallback?.reason).toMatch(/isolated-vm: Cannot find module/);
    expect(card.engine.fallback?.fix).toMatch(/isolated-vm/);
    expect(cli(['info']).stdout).toMatch(/^Engine: QuickJS WASM [\d.]+ on Node v[\d.]+: no isolated-vm build loads/);
  });
});
